// The limited voice recorder: idle → recording (auto-stops at the maximum) → recorded (play, save, reset).
import { Mic, Pause, Play, RotateCcw, Save, Square } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { MEDIA_LIMITS, MEDIA_MESSAGES } from '@shared/media-rules';
import { Button } from '@client/components/ui/button';
import { Progress } from '@client/components/ui/progress';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { cn, formatDuration } from '@client/lib/utils';
import { type Recording, useVoiceRecorder } from '../lib/use-voice-recorder';
import { MicrophoneLevelMeter } from './microphone-level-meter';

interface VoiceRecorderProps {
  /** Saves the recording; resolve to keep the recorder, it resets itself after a successful save. */
  onSave: (recording: Recording) => Promise<void>;
  saving?: boolean;
  saveLabel?: string;
  /** The message when Save is pressed with nothing recorded. */
  noRecordingMessage?: string;
  minSeconds?: number;
  maxSeconds?: number;
  className?: string;
}

export function VoiceRecorder({
  onSave,
  saving = false,
  saveLabel = 'Save Recording',
  noRecordingMessage = MEDIA_MESSAGES.noRecording,
  minSeconds = MEDIA_LIMITS.voiceMinSeconds,
  maxSeconds = MEDIA_LIMITS.voiceMaxSeconds,
  className,
}: VoiceRecorderProps) {
  const { status, elapsed, recording, liveStream, start, stop, reset } = useVoiceRecorder({
    maxSeconds,
    onStop: (done) => notifySuccess('Recording complete', `${formatDuration(done.duration)} of audio recorded.`),
  });
  const audioRef = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);

  useEffect(() => setPlaying(false), [recording]);

  // Start, Stop and Reset each give way to other buttons (and the wizard's next step brings a new recorder):
  // the focus moves on to the first of them instead of falling to <body> and the dialog's frame.
  const controlsRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const controls = controlsRef.current;
    const active = document.activeElement;
    const lost = !active || active === document.body || (active !== controls && active.contains(controls));
    if (controls && lost) controls.querySelector<HTMLButtonElement>('button:enabled')?.focus();
  }, [status]);

  async function save() {
    if (!recording) return notifyError(noRecordingMessage);
    if (recording.duration < minSeconds) return notifyError(MEDIA_MESSAGES.recordingTooShort);
    try {
      await onSave(recording);
      reset();
    } catch {
      // The caller shows why (inline, in its dialog); keep the recording for another try.
    }
  }

  function togglePlayback() {
    const audio = audioRef.current;
    if (!audio) return;
    if (audio.paused) void audio.play();
    else audio.pause();
  }

  const shown = Math.min(elapsed, maxSeconds);
  const statusText =
    status === 'recording'
      ? 'Recording… speak clearly'
      : status === 'recorded'
        ? `Recorded ${formatDuration(recording?.duration ?? 0)}`
        : `Ready: record between ${minSeconds} and ${maxSeconds} seconds`;

  return (
    <div className={cn('grid gap-4 rounded-2xl border bg-muted/40 p-4', className)}>
      <div className="flex items-center gap-4">
        <span
          aria-hidden="true"
          className={cn(
            'flex size-12 shrink-0 items-center justify-center rounded-full',
            status === 'recording' ? 'animate-pulse bg-destructive text-destructive-foreground' : 'bg-secondary text-primary',
          )}
        >
          <Mic className="size-6" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium" aria-live="polite">
            {statusText}
          </p>
          <p className="font-mono text-2xl font-semibold tabular-nums" aria-label="Recording time">
            {formatDuration(shown)} <span className="text-base text-muted-foreground">/ {formatDuration(maxSeconds)}</span>
          </p>
          {status === 'recording' && <MicrophoneLevelMeter stream={liveStream} className="mt-2" />}
        </div>
      </div>
      <Progress value={(shown / maxSeconds) * 100} aria-label="Recording length" />
      {recording && (
        <audio
          ref={audioRef}
          src={recording.url}
          className="hidden"
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={() => setPlaying(false)}
        />
      )}
      <div ref={controlsRef} className="flex flex-wrap gap-2">
        {status === 'idle' && (
          <Button type="button" onClick={() => void start()}>
            <Mic aria-hidden="true" /> Start Recording
          </Button>
        )}
        {status === 'recording' && (
          <Button type="button" variant="destructive" onClick={stop}>
            <Square aria-hidden="true" /> Stop Recording
          </Button>
        )}
        {status === 'recorded' && (
          <>
            <Button type="button" variant="outline" onClick={togglePlayback}>
              {playing ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />} {playing ? 'Pause' : 'Play'}
            </Button>
            <Button type="button" onClick={() => void save()} disabled={saving}>
              <Save aria-hidden="true" /> {saving ? 'Saving…' : saveLabel}
            </Button>
            <Button
              type="button"
              variant="ghost"
              disabled={saving}
              onClick={() => {
                reset();
                notifySuccess('Recording reset', 'You can record again.');
              }}
            >
              <RotateCcw aria-hidden="true" /> Reset
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
