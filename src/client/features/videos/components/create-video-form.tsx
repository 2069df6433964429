// The Create page's form (spec 02 §2, §5): title, description, what to replace, whose face and voice.
// The same schema and messages as the server, which checks everything again and renders the video.
import { CircleAlert, Sparkles, Users } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import type { CurrentUser, ProcessedVideo, VideoTemplate } from '@shared/api-types';
import { PAYMENT_MESSAGES } from '@shared/payments';
import { VIDEO_MESSAGES, createProcessedVideoSchema, estimatedProcessingSeconds, formatEstimate } from '@shared/video-rules';
import { NARRATION_MESSAGES, heardVoice, unusableRecordingMessage } from '@shared/voice-analysis';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card, CardContent } from '@client/components/ui/card';
import { CheckboxField, TextAreaField, TextField } from '@client/components/ui/form-field';
import { Skeleton } from '@client/components/ui/skeleton';
import { isPlanLimit } from '@client/lib/api';
import { usePersonFaceImages } from '@client/features/faces/api/use-person-face-images';
import { usePeople } from '@client/features/people/api/use-people';
import { PersonSelect } from '@client/features/people/components/person-select';
import { usePersonVoiceRecordings } from '@client/features/voices/api/use-person-voice-recordings';
import { useCreateProcessedVideo } from '../api/use-create-processed-video';
import { useProcessingEstimate } from '../api/use-processing-estimate';
import { FaceSelection } from './face-selection';
import { VoiceSelection } from './voice-selection';

type FieldName = 'title' | 'face' | 'voice' | 'form';

interface CreateVideoFormProps {
  template: VideoTemplate;
  user: CurrentUser;
  /** A video made before (one that failed): its title, description, person, face and voice come back. */
  startFrom?: ProcessedVideo;
  onCreated: (video: ProcessedVideo) => void;
}

export function CreateVideoForm({ template, user, startFrom, onCreated }: CreateVideoFormProps) {
  const [title, setTitle] = useState(startFrom?.title ?? `My version of ${template.title}`);
  const [description, setDescription] = useState(startFrom?.description ?? '');
  const [useFaceSwap, setUseFaceSwap] = useState(startFrom ? !startFrom.voiceOnly : !template.voiceOnly);
  const [useVoiceSwap, setUseVoiceSwap] = useState(startFrom ? startFrom.voiceRecordingId !== null : true);
  const [chosenPersonId, setChosenPersonId] = useState<number | undefined>(startFrom?.personId ?? undefined);
  const [chosenFaceId, setChosenFaceId] = useState<number | null>(startFrom?.faceImageId ?? null);
  const [chosenVoiceId, setChosenVoiceId] = useState<number | null>(startFrom?.voiceRecordingId ?? null);
  // Checked again on every change once the parent has tried to submit, so no message outlives its cause.
  const [attempted, setAttempted] = useState(false);
  const [refusal, setRefusal] = useState<{ message: string; planLimit: boolean; choices: string }>();

  const people = usePeople(user.id);
  const person = people.data?.find((p) => p.id === chosenPersonId) ?? people.data?.[0];
  const faces = usePersonFaceImages(useFaceSwap ? person?.id : undefined);
  const voices = usePersonVoiceRecordings(useVoiceSwap ? person?.id : undefined);
  // Until the parent picks one, the person's default (else first) face and voice are used (spec 02 §5).
  const faceId = pickOwn(faces.data, chosenFaceId);
  const voiceId = pickOwn(voices.data, chosenVoiceId);

  const measured = useProcessingEstimate(template.id, useFaceSwap, useVoiceSwap);
  const estimate = measured.data?.seconds ?? estimatedProcessingSeconds(template.duration, useFaceSwap, useVoiceSwap);
  const create = useCreateProcessedVideo(user.id);
  const swapping = useFaceSwap || useVoiceSwap;

  const input = {
    templateId: template.id,
    userId: user.id,
    personId: swapping ? (person?.id ?? null) : null,
    title,
    description: description.trim() || null,
    faceImageId: useFaceSwap ? faceId : null,
    voiceRecordingId: useVoiceSwap ? voiceId : null,
    useFaceSwap,
    useVoiceSwap,
  };
  const parsed = createProcessedVideoSchema.safeParse(input);
  const problems = findProblems();
  const errors = attempted ? problems : {};
  // The server's refusal shows until the parent changes one of the choices it was about.
  const choices = JSON.stringify(input);
  const shownRefusal = refusal?.choices === choices ? refusal : undefined;

  /** Every rule the server checks that the form can know, as messages per field. */
  function findProblems(): Partial<Record<FieldName, string>> {
    const found: Partial<Record<FieldName, string>> = {};
    if (!parsed.success) found.title = parsed.error.issues[0]?.message;
    if (useFaceSwap && faceId === null) found.face = VIDEO_MESSAGES.faceRequired;
    if (useVoiceSwap && voiceId === null) found.voice = VIDEO_MESSAGES.voiceRequired;
    const chosenVoice = voices.data?.find((recording) => recording.id === voiceId);
    if (useVoiceSwap && chosenVoice && !heardVoice(chosenVoice.analysis)) found.voice = unusableRecordingMessage(chosenVoice.name);
    if (useVoiceSwap && template.narration && template.narration.pitchMedianHz === null) found.voice = NARRATION_MESSAGES.noVoiceToChange;
    if (!swapping) found.form = VIDEO_MESSAGES.nothingToDo;
    return found;
  }

  function submit() {
    setAttempted(true);
    if (!parsed.success || Object.keys(problems).length > 0) return;
    create.mutate(parsed.data, {
      onSuccess: onCreated,
      onError: (error) => setRefusal({ message: error.message || 'An unknown error occurred', planLimit: isPlanLimit(error), choices }),
    });
  }

  return (
    <form
      noValidate
      className="grid gap-6"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Card>
        <CardContent className="grid gap-5 p-5">
          <TextField label="Video Title" value={title} error={errors.title} maxLength={200} onChange={(event) => setTitle(event.target.value)} />
          <TextAreaField label="Description (Optional)" value={description} onChange={setDescription} />
        </CardContent>
      </Card>

      <Card>
        <CardContent className="grid gap-4 p-5">
          <h2 className="font-semibold">Processing Options</h2>
          <CheckboxField
            label="Replace actor's face with your face"
            checked={useFaceSwap}
            onChange={setUseFaceSwap}
            disabled={template.voiceOnly}
            hint={template.voiceOnly ? 'This template personalises the voice only.' : undefined}
          />
          <CheckboxField label="Replace actor's voice with your voice" checked={useVoiceSwap} onChange={setUseVoiceSwap} />
        </CardContent>
      </Card>

      {swapping && (
        <Card>
          <CardContent className="grid gap-5 p-5">
            {people.isPending ? (
              <Skeleton className="h-10 rounded-lg" />
            ) : !person ? (
              <Alert>
                <Users aria-hidden="true" />
                <AlertTitle>Add a person first</AlertTitle>
                <AlertDescription>
                  Faces and voices belong to a person's profile. Add someone special, then come back to make their video.
                  <Button asChild size="sm" className="mt-2 w-fit">
                    <Link href="/people">Add a person</Link>
                  </Button>
                </AlertDescription>
              </Alert>
            ) : (
              <>
                <PersonSelect
                  label="Choose a Person"
                  people={people.data ?? []}
                  value={person.id}
                  onChange={(personId) => {
                    setChosenPersonId(personId);
                    setChosenFaceId(null);
                    setChosenVoiceId(null);
                  }}
                />
                {useFaceSwap && <FaceSelection person={person} faces={faces.data} selectedId={faceId} onSelect={setChosenFaceId} error={errors.face} />}
                {useVoiceSwap && (
                  <VoiceSelection person={person} recordings={voices.data} selectedId={voiceId} onSelect={setChosenVoiceId} error={errors.voice} />
                )}
              </>
            )}
            <Link href="/people" className="text-sm text-primary underline-offset-4 hover:underline">
              Manage people profiles
            </Link>
          </CardContent>
        </Card>
      )}

      {(errors.form ?? shownRefusal) && (
        <Alert variant="destructive" role="alert">
          <CircleAlert aria-hidden="true" />
          <AlertTitle>{refusalTitle(shownRefusal)}</AlertTitle>
          <AlertDescription>
            {errors.form ?? shownRefusal?.message}
            {shownRefusal?.planLimit && (
              <span className="mt-2 flex flex-wrap gap-2">
                {/* The premium rule can refuse after the page loaded (a subscription ended meanwhile). */}
                {shownRefusal.message === PAYMENT_MESSAGES.premiumRequired && (
                  <Button asChild size="sm" className="w-fit">
                    <Link href={`/checkout/${template.id}`}>Purchase</Link>
                  </Button>
                )}
                <Button asChild size="sm" className="w-fit">
                  <Link href="/profile#plan">See plans</Link>
                </Button>
              </span>
            )}
          </AlertDescription>
        </Alert>
      )}

      <div className="grid gap-3 sm:flex sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground" data-testid="estimated-time">
          Estimated processing time: <span className="font-medium text-foreground">{formatEstimate(estimate)}</span>
        </p>
        <Button type="submit" size="lg" disabled={create.isPending}>
          <Sparkles aria-hidden="true" /> {create.isPending ? 'Processing...' : 'Create My Video'}
        </Button>
      </div>
    </form>
  );
}

function refusalTitle(refusal: { message: string; planLimit: boolean } | undefined): string {
  if (!refusal?.planLimit) return 'Your video was not started';
  return refusal.message === PAYMENT_MESSAGES.premiumRequired ? 'Premium template' : 'Monthly video limit reached';
}

/** The chosen item if it is still in the list, else the default, else the first; null for an empty list. */
function pickOwn<T extends { id: number; isDefault: boolean }>(items: T[] | undefined, chosen: number | null): number | null {
  if (!items?.length) return null;
  if (chosen !== null && items.some((item) => item.id === chosen)) return chosen;
  return (items.find((item) => item.isDefault) ?? items[0]!).id;
}
