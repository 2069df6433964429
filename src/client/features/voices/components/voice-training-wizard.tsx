// The interactive voice training wizard (spec 01 §2): five scripted steps, each recorded and saved in turn,
// then the results: each recording's analysis (polled until done) with its warnings, before 'Voice
// processing complete!'. A step recorded again replaces that step's earlier recording.
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { Check, CheckCircle2, ChevronLeft, ChevronRight, CircleAlert, Quote, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { VoiceRecording } from '@shared/api-types';
import { MEDIA_MESSAGES } from '@shared/media-rules';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Progress } from '@client/components/ui/progress';
import { Spinner } from '@client/components/ui/spinner';
import { blobToDataUrl } from '@client/lib/media';
import { notifySuccess } from '@client/lib/notify';
import { cn } from '@client/lib/utils';
import { useCreateVoiceRecording } from '../api/use-create-voice-recording';
import { deleteVoiceRecording } from '../api/use-delete-voice-recording';
import { personVoiceRecordingsQueryKey, userVoiceRecordingsQueryKey } from '../api/use-person-voice-recordings';
import { voiceRecordingQueryOptions } from '../api/use-voice-recording';
import { isAwaitingAnalysis } from '../lib/voice-analysis';
import type { Recording } from '../lib/use-voice-recorder';
import { VOICE_TRAINING_STEPS } from '../lib/voice-training-steps';
import { VoiceAnalysisDetails } from './voice-analysis-details';
import { VoiceRecorder } from './voice-recorder';

/** The spec's words when the analysis of a recording fails without a message of its own. */
const PROCESSING_FAILED = 'Failed to process voice recording';

interface VoiceTrainingWizardProps {
  open: boolean;
  userId: number;
  personId: number;
  personName: string;
  onComplete: () => void;
  onCancel: () => void;
  /** True when a refusal was for want of the person's consent, and was told (the page's consent gate). */
  consentRefused?: (error: unknown) => boolean;
}

export function VoiceTrainingWizard({ open, userId, personId, personName, onComplete, onCancel, consentRefused }: VoiceTrainingWizardProps) {
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<'steps' | 'results'>('steps');
  const [index, setIndex] = useState(0);
  /** The saved recording of each step, by id; null until saved. */
  const [recordingIds, setRecordingIds] = useState<readonly (number | null)[]>(() => VOICE_TRAINING_STEPS.map(() => null));
  const saved = recordingIds.map((id) => id !== null);
  // Each saved recording is followed until analysed, so the results are often ready when the last step is.
  const savedIds = recordingIds.filter((id): id is number => id !== null);
  const analyses = useQueries({ queries: savedIds.map((id) => voiceRecordingQueryOptions(id)) });
  const results = recordingIds.map((id) => {
    const query = id === null ? undefined : analyses[savedIds.indexOf(id)];
    return { recording: query?.data, error: query?.error ?? null };
  });
  // A refused step is explained under its recorder: a toast would repeat it over the dialog.
  const create = useCreateVoiceRecording({ notify: false });
  const step = VOICE_TRAINING_STEPS[index]!;
  const isFirst = index === 0;
  const isLast = index === VOICE_TRAINING_STEPS.length - 1;
  const doneCount = saved.filter(Boolean).length;

  async function saveStep(recording: Recording) {
    const stepIndex = index;
    const replaced = recordingIds[stepIndex] ?? null;
    const created = await create
      .mutateAsync({
        userId,
        personId,
        name: `${personName} - ${step.title}`,
        audioData: await blobToDataUrl(recording.blob),
        duration: recording.duration,
        // Only the first step becomes the person's default voice.
        isDefault: stepIndex === 0,
        type: step.type,
      })
      .catch((error: unknown) => {
        // Told in a toast that offers the consent; the recording stays for another try.
        if (consentRefused?.(error)) create.reset();
        throw error;
      });
    notifySuccess('Voice recording saved', `${step.title} saved (${stepIndex + 1} of ${VOICE_TRAINING_STEPS.length}).`);
    setRecordingIds((current) => current.map((id, i) => (i === stepIndex ? created.id : id)));
    if (replaced !== null) await removeReplaced(replaced);
    if (stepIndex < VOICE_TRAINING_STEPS.length - 1) setIndex(stepIndex + 1);
  }

  /** A step recorded again keeps only its new recording; if that fails the old one simply stays in the list. */
  async function removeReplaced(recordingId: number) {
    await deleteVoiceRecording(recordingId).catch(() => undefined);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: personVoiceRecordingsQueryKey(personId) }),
      queryClient.invalidateQueries({ queryKey: userVoiceRecordingsQueryKey(userId) }),
    ]);
  }

  /** Another step: the last refusal belonged to the step left. */
  function goToStep(stepIndex: number) {
    create.reset();
    setIndex(stepIndex);
  }

  function recordAgain(stepIndex: number) {
    goToStep(stepIndex);
    setPhase('steps');
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !next && (phase === 'results' ? onComplete() : onCancel())}>
      <DialogContent className="max-w-3xl gap-5 sm:p-8">
        {phase === 'results' ? (
          <TrainingResults
            personName={personName}
            results={results}
            onRecordAgain={recordAgain}
            onFinish={onComplete}
          />
        ) : (
          <>
            <DialogHeader>
              <DialogTitle className="text-xl">Voice Training for {personName}</DialogTitle>
              <DialogDescription>
                Step {index + 1} of {VOICE_TRAINING_STEPS.length}: read the script aloud, listen back, then save it.
              </DialogDescription>
            </DialogHeader>

            <div className="grid gap-3">
              <ol className="grid grid-cols-5 gap-2" aria-label="Training steps">
                {VOICE_TRAINING_STEPS.map((item, i) => (
                  <li key={item.id} aria-current={i === index ? 'step' : undefined} className="grid justify-items-center gap-1 text-center">
                    <span
                      className={cn(
                        'flex size-8 items-center justify-center rounded-full border text-sm font-semibold',
                        saved[i] && 'border-transparent bg-primary text-primary-foreground',
                        !saved[i] && i === index && 'border-primary text-primary ring-4 ring-primary/15',
                        !saved[i] && i !== index && 'bg-card text-muted-foreground',
                      )}
                    >
                      {saved[i] ? <Check className="size-4" aria-label="saved" /> : i + 1}
                    </span>
                    <span className={cn('hidden text-xs sm:block', i === index ? 'font-semibold' : 'text-muted-foreground')}>
                      {item.title}
                    </span>
                  </li>
                ))}
              </ol>
              <Progress value={(doneCount / VOICE_TRAINING_STEPS.length) * 100} aria-label="Training progress" />
            </div>

            <section aria-labelledby="voice-step-title" className="grid gap-3">
              <div className="flex flex-wrap items-center gap-2">
                <h3 id="voice-step-title" className="text-lg font-semibold">
                  {step.title}
                </h3>
                <Badge variant="secondary" className="capitalize">
                  {step.type}
                </Badge>
                {saved[index] && (
                  <Badge>
                    <Check aria-hidden="true" /> Saved
                  </Badge>
                )}
              </div>
              <p className="text-sm text-muted-foreground">{step.description}</p>
              <blockquote className="relative rounded-2xl border border-[#f1d58a] bg-sunshine/15 p-5 pl-12 text-lg leading-relaxed">
                <Quote aria-hidden="true" className="absolute top-5 left-4 size-5 text-primary" />
                {step.script}
              </blockquote>
            </section>

            <VoiceRecorder
              key={step.id}
              onSave={saveStep}
              saving={create.isPending}
              saveLabel="Save Recording"
              noRecordingMessage={MEDIA_MESSAGES.wizardNoRecording}
            />
            {create.isError && (
              <Alert variant="destructive">
                <CircleAlert aria-hidden="true" />
                <AlertTitle>This recording was not saved</AlertTitle>
                <AlertDescription>{create.error.message}</AlertDescription>
              </Alert>
            )}

            <DialogFooter className="gap-2 sm:justify-between">
              <Button type="button" variant="outline" onClick={() => (isFirst ? onCancel() : goToStep(index - 1))}>
                {isFirst ? (
                  'Cancel'
                ) : (
                  <>
                    <ChevronLeft aria-hidden="true" /> Previous
                  </>
                )}
              </Button>
              <Button
                type="button"
                disabled={!saved[index]}
                onClick={() => (isLast ? setPhase('results') : goToStep(index + 1))}
              >
                {isLast ? (
                  <>
                    <Check aria-hidden="true" /> Complete
                  </>
                ) : (
                  <>
                    Next <ChevronRight aria-hidden="true" />
                  </>
                )}
              </Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

interface TrainingResultsProps {
  personName: string;
  /** Each step's recording as last fetched (undefined while loading), or why it could not be fetched. */
  results: { recording: VoiceRecording | undefined; error: Error | null }[];
  onRecordAgain: (stepIndex: number) => void;
  onFinish: () => void;
}

/**
 * Each step's analysis, then the outcome. Only success is also toasted, once ('Voice processing complete!'):
 * a failure is shown on its step, and a toast would repeat it over the dialog.
 */
function TrainingResults({ personName, results, onRecordAgain, onFinish }: TrainingResultsProps) {
  const errors = results.map(({ recording, error }) => recording?.analysisError || (error ? error.message || PROCESSING_FAILED : null));
  const done = results.every(({ recording }, i) => errors[i] || (recording && !isAwaitingAnalysis(recording)));
  const failed = errors.filter(Boolean).length;
  const toasted = useRef(false);

  useEffect(() => {
    if (!done || toasted.current) return;
    toasted.current = true;
    if (failed === 0) notifySuccess('Voice processing complete!');
  }, [done, failed]);

  return (
    <>
      <DialogHeader>
        <DialogTitle className="text-xl">Voice Training for {personName}</DialogTitle>
        <DialogDescription>
          {done
            ? 'Here is what we heard in each recording. Record a step again if something needs fixing.'
            : 'We are listening to each recording: pitch, loudness and how much of it is speech.'}
        </DialogDescription>
      </DialogHeader>

      <div className="flex items-center gap-3" aria-live="polite">
        {done ? (
          <>
            <span
              className={cn(
                'flex size-10 shrink-0 items-center justify-center rounded-full',
                failed === 0 ? 'bg-secondary text-primary' : 'bg-destructive/10 text-destructive',
              )}
            >
              {failed === 0 ? <CheckCircle2 className="size-6" aria-hidden="true" /> : <CircleAlert className="size-6" aria-hidden="true" />}
            </span>
            <h3 className="text-lg font-semibold">
              {failed === 0 ? 'Voice processing complete!' : 'Some recordings could not be processed'}
            </h3>
          </>
        ) : (
          <>
            <Spinner className="size-6" label="Processing voice" />
            <h3 className="text-lg font-semibold">Processing your recordings…</h3>
          </>
        )}
      </div>

      <ol className="grid gap-2" aria-label="Recording results">
        {VOICE_TRAINING_STEPS.map((step, i) => {
          const { recording, error } = results[i]!;
          const needsAttention = Boolean(errors[i] || recording?.analysis?.warnings.length);
          return (
            <li key={step.id} className="grid gap-2 rounded-xl border bg-card p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium">
                  {i + 1}. {step.title}
                </span>
                {needsAttention && (
                  <Button variant="outline" size="sm" onClick={() => onRecordAgain(i)} aria-label={`Record ${step.title} again`}>
                    <RotateCcw aria-hidden="true" /> Record again
                  </Button>
                )}
              </div>
              {recording ? (
                <VoiceAnalysisDetails recording={recording} />
              ) : error ? (
                <p className="text-sm text-destructive" role="alert">
                  {errors[i]}
                </p>
              ) : (
                <Spinner className="size-4" label={`Loading ${step.title}`} />
              )}
            </li>
          );
        })}
      </ol>

      <DialogFooter>
        <Button type="button" onClick={onFinish}>
          <Check aria-hidden="true" /> {done ? 'Finish' : 'Finish without waiting'}
        </Button>
      </DialogFooter>
    </>
  );
}
