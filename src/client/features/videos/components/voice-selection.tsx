// Voice Selection on the Create page: one of the person's recordings (their default first), or a new
// one from the recorder.
import { Mic } from 'lucide-react';
import { useState } from 'react';
import type { Person, VoiceRecording } from '@shared/api-types';
import { heardVoice } from '@shared/voice-analysis';
import { Button } from '@client/components/ui/button';
import { FieldError } from '@client/components/ui/form-field';
import { Skeleton } from '@client/components/ui/skeleton';
import { cn, formatDuration } from '@client/lib/utils';
import { useConsentGate } from '@client/features/people/components/use-consent-gate';
import { AddVoiceRecordingDialog } from '@client/features/voices/components/add-voice-recording-dialog';
import { AudioPlayButton } from '@client/features/voices/components/audio-play-button';

interface VoiceSelectionProps {
  person: Person;
  recordings: VoiceRecording[] | undefined;
  selectedId: number | null;
  onSelect: (id: number) => void;
  error?: string;
}

export function VoiceSelection({ person, recordings, selectedId, onSelect, error }: VoiceSelectionProps) {
  const [adding, setAdding] = useState(false);
  const consent = useConsentGate();
  return (
    <fieldset className="grid gap-3" aria-describedby={error ? 'voice-selection-error' : undefined}>
      <div className="flex items-center justify-between gap-2">
        <legend className="text-sm font-medium">Voice Selection</legend>
        <Button type="button" size="sm" variant="outline" onClick={() => consent.ask(person, () => setAdding(true))}>
          <Mic aria-hidden="true" /> Record a voice
        </Button>
      </div>
      {recordings === undefined ? (
        <Skeleton className="h-14 rounded-xl" />
      ) : recordings.length === 0 ? (
        <p className="rounded-xl bg-muted px-4 py-3 text-sm text-muted-foreground">
          {person.name} has no voice recordings yet. Record them speaking naturally for 5 to 30 seconds.
        </p>
      ) : (
        <div role="radiogroup" aria-label={`${person.name}'s voice recordings`} className="grid gap-2">
          {recordings.map((recording) => {
            const selected = recording.id === selectedId;
            return (
              <div
                key={recording.id}
                className={cn('flex items-center gap-3 rounded-xl border-2 p-2 pr-3', selected ? 'border-primary bg-primary/5' : 'border-border')}
              >
                <AudioPlayButton src={recording.audioUrl} name={recording.name} />
                <button
                  type="button"
                  role="radio"
                  aria-checked={selected}
                  onClick={() => onSelect(recording.id)}
                  className="flex flex-1 items-center justify-between gap-2 text-left text-sm outline-none focus-visible:underline"
                >
                  <span className="font-medium">
                    {recording.name}
                    {recording.isDefault && <span className="ml-2 text-xs text-muted-foreground">(default)</span>}
                    {!heardVoice(recording.analysis) && <span className="ml-2 text-xs text-destructive">No voice heard</span>}
                  </span>
                  <span className="tabular-nums text-muted-foreground">{formatDuration(recording.duration)}</span>
                </button>
              </div>
            );
          })}
        </div>
      )}
      <FieldError id="voice-selection-error" message={error} />
      <AddVoiceRecordingDialog person={person} hasDefault={Boolean(recordings?.some((r) => r.isDefault))} open={adding} onOpenChange={setAdding} onSaved={(recording) => onSelect(recording.id)} />
      {consent.dialog}
    </fieldset>
  );
}
