// The live microphone level while recording, and a hint when the microphone seems to hear nothing.
import { MicOff } from 'lucide-react';
import { cn } from '@client/lib/utils';
import { useMicrophoneLevel } from '../lib/use-microphone-level';

/** A client-side hint only: no route checks it, so it lives with the one component that shows it. */
export const MICROPHONE_SILENT_MESSAGE = "We can't hear anything. Check the microphone, or move closer.";

// Segments, like a sound desk's meter, so it does not read as a second copy of the recording-length bar.
const SEGMENTS = 20;

export function MicrophoneLevelMeter({ stream, className }: { stream: MediaStream | null; className?: string }) {
  const { level, silent } = useMicrophoneLevel(stream);
  const percent = Math.round(level * 100);
  const lit = Math.round(level * SEGMENTS);

  return (
    <div className={cn('flex flex-col', className)}>
      <div
        role="meter"
        aria-label="Microphone level"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="flex h-2.5 w-full max-w-64 gap-0.5"
      >
        {Array.from({ length: SEGMENTS }, (_, index) => (
          <span
            key={index}
            className={cn('flex-1 rounded-[2px] transition-colors duration-75', index < lit ? 'bg-sky' : 'bg-muted-foreground/15')}
          />
        ))}
      </div>
      {/* Always present while recording, so screen readers announce the hint when it appears. */}
      <div aria-live="polite">
        {silent && (
          <p className="mt-2 flex items-start gap-1.5 text-sm">
            <MicOff aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-[#a86a00]" />
            {MICROPHONE_SILENT_MESSAGE}
          </p>
        )}
      </div>
    </div>
  );
}
