// The interactive voice training wizard (spec 01 §2): five scripted steps, each recorded and saved in turn.
import { Check, ChevronLeft, ChevronRight, Quote } from 'lucide-react';
import { useState } from 'react';
import { MEDIA_MESSAGES } from '@shared/media-rules';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Progress } from '@client/components/ui/progress';
import { blobToDataUrl } from '@client/lib/media';
import { notifySuccess } from '@client/lib/notify';
import { cn } from '@client/lib/utils';
import { useCreateVoiceRecording } from '../api/use-create-voice-recording';
import type { Recording } from '../lib/use-voice-recorder';
import { VOICE_TRAINING_STEPS } from '../lib/voice-training-steps';
import { VoiceRecorder } from './voice-recorder';

interface VoiceTrainingWizardProps {
  open: boolean;
  userId: number;
  personId: number;
  personName: string;
  onComplete: () => void;
  onCancel: () => void;
}

export function VoiceTrainingWizard({ open, userId, personId, personName, onComplete, onCancel }: VoiceTrainingWizardProps) {
  const [index, setIndex] = useState(0);
  const [saved, setSaved] = useState<readonly boolean[]>(() => VOICE_TRAINING_STEPS.map(() => false));
  const create = useCreateVoiceRecording();
  const step = VOICE_TRAINING_STEPS[index]!;
  const isFirst = index === 0;
  const isLast = index === VOICE_TRAINING_STEPS.length - 1;
  const doneCount = saved.filter(Boolean).length;

  async function saveStep(recording: Recording) {
    const stepIndex = index;
    await create.mutateAsync({
      userId,
      personId,
      name: `${personName} - ${step.title}`,
      audioData: await blobToDataUrl(recording.blob),
      duration: recording.duration,
      // Only the first step becomes the person's default voice.
      isDefault: stepIndex === 0,
      type: step.type,
    });
    notifySuccess('Voice recording saved', `${step.title} saved (${stepIndex + 1} of ${VOICE_TRAINING_STEPS.length}).`);
    setSaved((current) => current.map((value, i) => value || i === stepIndex));
    if (stepIndex < VOICE_TRAINING_STEPS.length - 1) setIndex(stepIndex + 1);
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !next && onCancel()}>
      <DialogContent className="max-w-3xl gap-5 sm:p-8">
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

        <DialogFooter className="gap-2 sm:justify-between">
          <Button type="button" variant="outline" onClick={() => (isFirst ? onCancel() : setIndex(index - 1))}>
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
            onClick={() => (isLast ? onComplete() : setIndex(index + 1))}
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
      </DialogContent>
    </Dialog>
  );
}
