// A person's voice recordings (spec 01 §2): training, saved recordings with play/default/delete and what
// their analysis found (the list polls while one is being analysed), and tips. Deleting one asks first (it
// is biometric data); adding one asks for the person's consent first when none is recorded.
import { Lightbulb, Mic, Plus, Star, Trash2, Wand2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'wouter';
import type { Person, VoiceRecording } from '@shared/api-types';
import { MEDIA_MESSAGES, deleteVoiceRecordingQuestion } from '@shared/media-rules';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { ConfirmDeleteDialog } from '@client/components/ui/confirm-dialog';
import { Skeleton } from '@client/components/ui/skeleton';
import { formatDuration } from '@client/lib/utils';
import { useConsentGate } from '@client/features/people/components/use-consent-gate';
import { useDeleteVoiceRecording } from '../api/use-delete-voice-recording';
import { usePersonVoiceRecordings } from '../api/use-person-voice-recordings';
import { useSetDefaultVoiceRecording } from '../api/use-set-default-voice-recording';
import { AddVoiceRecordingDialog } from './add-voice-recording-dialog';
import { AudioPlayButton } from './audio-play-button';
import { recordingKindLabel } from '../lib/voice-analysis';
import { VoiceAnalysisDetails } from './voice-analysis-details';

export function VoiceRecordingsPanel({ person }: { person: Person }) {
  const recordings = usePersonVoiceRecordings(person.id);
  const setDefault = useSetDefaultVoiceRecording();
  const remove = useDeleteVoiceRecording();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<VoiceRecording | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const consent = useConsentGate();
  const list = recordings.data ?? [];

  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 ref={headingRef} tabIndex={-1} className="min-w-0 text-lg font-semibold break-words outline-none">
          {person.name}&apos;s Voice Recordings
        </h3>
        <div className="grid w-full grid-cols-1 gap-2 min-[420px]:flex min-[420px]:w-auto min-[420px]:flex-wrap">
          <Button variant="outline" asChild>
            <Link href={`/voice-training/${person.id}`}>
              <Wand2 aria-hidden="true" /> Voice Training
            </Link>
          </Button>
          <Button onClick={() => consent.ask(person, () => setAdding(true))}>
            <Plus aria-hidden="true" /> Add Recording
          </Button>
        </div>
      </div>

      <section aria-labelledby={`saved-recordings-${person.id}`} className="grid gap-3">
        <h4 id={`saved-recordings-${person.id}`} className="text-sm font-semibold tracking-wide text-muted-foreground uppercase">
          Saved Recordings
        </h4>
        {recordings.isLoading ? (
          <div className="grid gap-2" aria-busy="true">
            <Skeleton className="h-16" />
            <Skeleton className="h-16" />
          </div>
        ) : recordings.isError ? (
          <Alert variant="destructive">
            <AlertTitle>{MEDIA_MESSAGES.loadVoiceRecordingsFailed}</AlertTitle>
            <AlertDescription>{recordings.error.message}</AlertDescription>
          </Alert>
        ) : list.length === 0 ? (
          <div className="grid justify-items-center gap-2 rounded-2xl border border-dashed bg-muted/40 p-8 text-center">
            <Mic className="size-8 text-muted-foreground" aria-hidden="true" />
            <p className="font-semibold">No voice recordings yet</p>
            <p className="max-w-sm text-sm text-muted-foreground">
              Use Voice Training for the best results, or add a single recording.
            </p>
          </div>
        ) : (
          <ul className="grid gap-2" aria-label="Saved recordings">
            {list.map((recording) => (
              // min-w-0 and one bounded column: without them a recording's widest line (a long name such as
              // 'Grandma Rose - Happy and Excited', unwrapped) set the list's width, 500–600 px on a phone.
              <li key={recording.id} className="grid min-w-0 grid-cols-1 gap-2 rounded-xl border bg-card p-3">
                <div className="flex items-center gap-3">
                  <AudioPlayButton src={recording.audioUrl} name={recording.name} />
                  <div className="min-w-0 flex-1">
                    {/* Wrapped, not cut: the wizard's names differ only at their end (… - Counting, … - Questions). */}
                    <p className="font-medium break-words">{recording.name}</p>
                    <div className="mt-0.5 flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
                      <span className="tabular-nums">{formatDuration(recording.duration)}</span>
                      {recordingKindLabel(recording.type) && <Badge variant="outline">{recordingKindLabel(recording.type)}</Badge>}
                      {recording.isDefault && <Badge>Default</Badge>}
                    </div>
                  </div>
                  {!recording.isDefault && (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Set ${recording.name} as default`}
                      disabled={setDefault.isPending}
                      onClick={() => setDefault.mutate(recording)}
                    >
                      <Star aria-hidden="true" /> <span className="hidden sm:inline">Set default</span>
                    </Button>
                  )}
                  <Button
                    variant="ghost"
                    size="icon"
                    className="text-destructive hover:text-destructive"
                    aria-label={`Delete ${recording.name}`}
                    disabled={remove.isPending}
                    onClick={() => setDeleting(recording)}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </div>
                <VoiceAnalysisDetails recording={recording} className="sm:pl-13" />
              </li>
            ))}
          </ul>
        )}
      </section>

      <aside className="flex gap-3 rounded-2xl border border-[#f1d58a] bg-sunshine/15 p-4 text-sm">
        <Lightbulb className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
        <div className="grid gap-1">
          <p className="font-semibold">Tips for great recordings</p>
          <ul className="list-disc space-y-0.5 pl-4 text-muted-foreground">
            <li>Record in a quiet room, away from fans, TVs and echoes.</li>
            <li>Speak naturally, the way you would to your child.</li>
            <li>Several recordings with different moods make the voice more lifelike.</li>
          </ul>
        </div>
      </aside>

      <AddVoiceRecordingDialog person={person} hasDefault={list.some((r) => r.isDefault)} open={adding} onOpenChange={setAdding} />
      <ConfirmDeleteDialog
        open={deleting !== null}
        title="Delete Voice Recording"
        question={deleteVoiceRecordingQuestion(deleting?.name ?? '')}
        confirmLabel="Delete Recording"
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(null) })}
        focusAfterDelete={headingRef}
      />
      {consent.dialog}
    </div>
  );
}
