// Withdrawing a person's consent deletes what was made of them: the confirmation counts it first, from the
// person's lists and the user's videos, so the parent reads exactly what will go.
import { useQueryClient } from '@tanstack/react-query';
import { ShieldOff } from 'lucide-react';
import { useEffect } from 'react';
import type { Person } from '@shared/api-types';
import { ConfirmDeleteDialog } from '@client/components/ui/confirm-dialog';
import { Skeleton } from '@client/components/ui/skeleton';
import { usePersonFaceImages } from '@client/features/faces/api/use-person-face-images';
import { usePersonFaceVideos } from '@client/features/faces/api/use-person-face-videos';
import { processedVideosQueryKey, useProcessedVideos } from '@client/features/videos/api/use-processed-videos';
import { usePersonVoiceRecordings } from '@client/features/voices/api/use-person-voice-recordings';
import { type WithdrawalCounts, videosMadeWith, withdrawalWarning } from '../lib/consent';
import { personQueryKey } from '../api/use-person';

interface WithdrawConsentDialogProps {
  person: Person | null;
  pending: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: (person: Person) => void;
}

export function WithdrawConsentDialog({ person, pending, onOpenChange, onConfirm }: WithdrawConsentDialogProps) {
  const counts = useWithdrawalCounts(person);
  return (
    <ConfirmDeleteDialog
      open={person !== null}
      title={`Withdraw consent for ${person?.name}?`}
      question={
        counts.data && person ? (
          withdrawalWarning(person.name, counts.data)
        ) : counts.error ? (
          `All of ${person?.name}'s face photos, face clips, voice recordings and the videos made with them will be deleted. ${person?.name}'s profile stays. This cannot be undone.`
        ) : (
          <div className="grid gap-2 pt-1" aria-busy="true">
            <span className="sr-only">Counting what will be deleted…</span>
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-2/3" />
          </div>
        )
      }
      confirmLabel="Withdraw consent"
      icon={ShieldOff}
      pending={pending}
      pendingLabel="Withdrawing…"
      ready={counts.data !== undefined || counts.error !== null}
      onCancel={() => onOpenChange(false)}
      onConfirm={() => person && onConfirm(person)}
    />
  );
}

/** The numbers the confirmation states; read afresh each time it opens (faces arrive from clips meanwhile). */
function useWithdrawalCounts(person: Person | null): { data?: WithdrawalCounts; error: Error | null } {
  const queryClient = useQueryClient();
  const personId = person?.id;
  const userId = person?.userId;
  useEffect(() => {
    if (personId === undefined || userId === undefined) return;
    void queryClient.invalidateQueries({ queryKey: personQueryKey(personId) });
    void queryClient.invalidateQueries({ queryKey: processedVideosQueryKey(userId) });
  }, [queryClient, personId, userId]);
  const faceImages = usePersonFaceImages(person?.id);
  const faceVideos = usePersonFaceVideos(person?.id);
  const voiceRecordings = usePersonVoiceRecordings(person?.id);
  const videos = useProcessedVideos(person?.userId);
  const error = faceImages.error ?? faceVideos.error ?? voiceRecordings.error ?? videos.error;
  if (!person || !faceImages.data || !faceVideos.data || !voiceRecordings.data || !videos.data) return { error };
  const made = videosMadeWith(
    videos.data,
    person.id,
    new Set(faceImages.data.map((image) => image.id)),
    new Set(voiceRecordings.data.map((recording) => recording.id)),
  );
  return {
    error,
    data: {
      faceImages: faceImages.data.length,
      faceVideos: faceVideos.data.length,
      voiceRecordings: voiceRecordings.data.length,
      processedVideos: made.length,
    },
  };
}
