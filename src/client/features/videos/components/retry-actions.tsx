// What a parent can do about a failed video: try again with the same choices, or with another recording
// or photo of the same person (POST /api/processedVideos/{id}/retry). The photo and recording it used are
// named, so the parent can tell which one the reason is about.
import { ImageIcon, Mic, RotateCcw } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'wouter';
import type { FaceImage, ProcessedVideo, VoiceRecording } from '@shared/api-types';
import { heardVoice } from '@shared/voice-analysis';
import { Button } from '@client/components/ui/button';
import { usePersonFaceImages } from '@client/features/faces/api/use-person-face-images';
import { usePeople } from '@client/features/people/api/use-people';
import { usePersonVoiceRecordings } from '@client/features/voices/api/use-person-voice-recordings';
import { AudioPlayButton } from '@client/features/voices/components/audio-play-button';
import { isPlanLimit } from '@client/lib/api';
import { cn, formatDuration } from '@client/lib/utils';
import { useRetryProcessedVideo } from '../api/use-retry-processed-video';
import { RetryChoiceDialog, type RetryChoice } from './retry-choice-dialog';

type Retryable = Pick<ProcessedVideo, 'id' | 'userId' | 'personId' | 'faceImageId' | 'voiceRecordingId' | 'voiceOnly'>;

/** What the render used, as the server reads it: a face unless voice-only; a voice when one was chosen (always for voice-only). */
export function retryOptions(video: Retryable): { face: boolean; voice: boolean } {
  return { face: !video.voiceOnly, voice: video.voiceOnly || video.voiceRecordingId !== null };
}

function nameOf(list: { id: number; name: string }[] | undefined, id: number | null): string | undefined {
  return id === null ? undefined : list?.find((item) => item.id === id)?.name;
}

function faceChoices(faces: FaceImage[] | undefined): RetryChoice[] | undefined {
  return faces?.map((face) => ({ id: face.id, name: face.name, pictureUrl: face.imageUrl }));
}

function voiceChoices(recordings: VoiceRecording[] | undefined): RetryChoice[] | undefined {
  return recordings?.map((recording) => ({
    id: recording.id,
    name: recording.name,
    detail: formatDuration(recording.duration),
    unusable: heardVoice(recording.analysis) ? undefined : 'No voice was heard in this one',
    trailing: <AudioPlayButton src={recording.audioUrl} name={recording.name} />,
  }));
}

/**
 * The buttons ("Try again", "Choose another recording", "Choose another photo") with their dialogs, and
 * why a retry was refused. `onRetried` runs once the video is queued again (the buttons are then gone,
 * so the caller moves the focus).
 */
export function RetryActions({ video, onRetried, className }: { video: Retryable; onRetried?: () => void; className?: string }) {
  const retry = useRetryProcessedVideo(video.userId);
  const [choosing, setChoosing] = useState<'face' | 'voice'>();
  const triggers = { face: useRef<HTMLButtonElement>(null), voice: useRef<HTMLButtonElement>(null) };
  // Set before the call: a successful retry may take the buttons (and the open dialog) away before it returns.
  const retriedFromDialog = useRef(false);
  const uses = retryOptions(video);
  const personId = video.personId ?? undefined;
  const person = usePeople(personId === undefined ? undefined : video.userId).data?.find((candidate) => candidate.id === personId);
  const faces = usePersonFaceImages(uses.face ? personId : undefined).data;
  const recordings = usePersonVoiceRecordings(uses.voice ? personId : undefined).data;
  const faceName = nameOf(faces, video.faceImageId);
  const recordingName = nameOf(recordings, video.voiceRecordingId);
  const whose = person ? `${person.name}'s` : "the same person's";

  async function tryAgain(changes: { faceImageId?: number; voiceRecordingId?: number }) {
    const fromDialog = choosing !== undefined;
    retriedFromDialog.current = fromDialog;
    try {
      await retry.mutateAsync({ id: video.id, ...changes });
    } catch {
      retriedFromDialog.current = false;
      return; // retry.error says why, next to the buttons or in the open dialog
    }
    if (fromDialog) setChoosing(undefined); // its close moves the focus
    else onRetried?.();
  }

  /** Closed after a retry: the caller's place (the buttons are gone). Cancelled: back to the button that opened it. */
  function focusAfterDialog(event: Event, what: 'face' | 'voice') {
    event.preventDefault();
    if (retriedFromDialog.current) {
      retriedFromDialog.current = false;
      onRetried?.();
    } else {
      triggers[what].current?.focus();
    }
  }

  function choose(what: 'face' | 'voice') {
    retry.reset();
    setChoosing(what);
  }

  return (
    <div className={cn('grid gap-2', className)}>
      {(faceName || recordingName) && (
        <div className="grid gap-0.5 text-xs break-words text-muted-foreground" data-testid="retry-used">
          {faceName && <p>Photo: {faceName}</p>}
          {recordingName && <p>Recording: {recordingName}</p>}
        </div>
      )}
      <Button size="sm" disabled={retry.isPending} onClick={() => void tryAgain({})}>
        <RotateCcw aria-hidden="true" />
        Try again
      </Button>
      {uses.voice && personId !== undefined && (
        <Button ref={triggers.voice} size="sm" variant="outline" disabled={retry.isPending} onClick={() => choose('voice')}>
          <Mic aria-hidden="true" />
          Choose another recording
        </Button>
      )}
      {uses.face && personId !== undefined && (
        <Button ref={triggers.face} size="sm" variant="outline" disabled={retry.isPending} onClick={() => choose('face')}>
          <ImageIcon aria-hidden="true" />
          Choose another photo
        </Button>
      )}
      {retry.error && !choosing && (
        <p role="alert" className="text-xs break-words text-destructive">
          {retry.error.message}
          {isPlanLimit(retry.error) && (
            <>
              {' '}
              <Link href="/profile#plan" className="font-medium underline underline-offset-4">
                See plans
              </Link>
            </>
          )}
        </p>
      )}

      <RetryChoiceDialog
        open={choosing === 'voice'}
        onOpenChange={(open) => !open && setChoosing(undefined)}
        title="Choose another recording"
        description={`Pick another of ${whose} recordings. The video is made again with it; everything else stays the same.`}
        legend={`${whose} recordings`}
        choices={voiceChoices(recordings)}
        usedId={video.voiceRecordingId}
        nothingElse={<NothingElse what="recording" />}
        confirmLabel="Try again with this recording"
        pending={retry.isPending}
        error={retry.error}
        onConfirm={(voiceRecordingId) => void tryAgain({ voiceRecordingId })}
        onCloseAutoFocus={(event) => focusAfterDialog(event, 'voice')}
      />
      <RetryChoiceDialog
        open={choosing === 'face'}
        onOpenChange={(open) => !open && setChoosing(undefined)}
        title="Choose another photo"
        description={`Pick another of ${whose} photos. The video is made again with it; everything else stays the same.`}
        legend={`${whose} photos`}
        choices={faceChoices(faces)}
        usedId={video.faceImageId}
        nothingElse={<NothingElse what="photo" />}
        confirmLabel="Try again with this photo"
        pending={retry.isPending}
        error={retry.error}
        onConfirm={(faceImageId) => void tryAgain({ faceImageId })}
        onCloseAutoFocus={(event) => focusAfterDialog(event, 'face')}
      />
    </div>
  );
}

function NothingElse({ what }: { what: 'photo' | 'recording' }) {
  return (
    <>
      There is no other {what} to choose yet.{' '}
      <Link href="/people" className="font-medium text-primary underline underline-offset-4">
        Add one on the People page
      </Link>
      , then come back here.
    </>
  );
}
