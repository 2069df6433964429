import { Pause, Play } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '@client/components/ui/button';

/** A play/pause toggle for one stored recording (the media URL carries the session cookie). */
export function AudioPlayButton({ src, name }: { src: string; name: string }) {
  const audioRef = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  return (
    <>
      <Button
        type="button"
        variant="secondary"
        size="icon"
        className="rounded-full"
        aria-label={`${playing ? 'Pause' : 'Play'} ${name}`}
        onClick={() => {
          const audio = audioRef.current;
          if (!audio) return;
          if (audio.paused) void audio.play().catch(() => setPlaying(false));
          else audio.pause();
        }}
      >
        {playing ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
      </Button>
      <audio
        ref={audioRef}
        src={src}
        preload="none"
        className="hidden"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
      />
    </>
  );
}
