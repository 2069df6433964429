// A person's face images and face videos kept current while faces are extracted in the background:
// both lists are polled while a video is pending or processing, and loaded once more when the last one ends.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { personFaceImagesQueryKey, usePersonFaceImages } from '../api/use-person-face-images';
import { isProcessing, usePersonFaceVideos } from '../api/use-person-face-videos';
import { userFaceImagesQueryKey } from '../api/use-user-face-images';

export function useFaceCollection(personId: number | undefined, userId: number | undefined) {
  const faceVideos = usePersonFaceVideos(personId);
  const processing = (faceVideos.data ?? []).filter(isProcessing);
  const faceImages = usePersonFaceImages(personId, { whileExtracting: processing.length > 0 });
  useRefreshWhenProcessed(personId, userId, processing.length);
  return { faceImages, faceVideos, processing };
}

/**
 * When a face video finishes, its faces are new face images (and may give the person a default face,
 * the list's avatar): polling stops with that answer, so load the images once more.
 */
function useRefreshWhenProcessed(personId: number | undefined, userId: number | undefined, processingCount: number) {
  const queryClient = useQueryClient();
  const previous = useRef(processingCount);
  useEffect(() => {
    if (personId !== undefined && processingCount < previous.current) {
      void queryClient.invalidateQueries({ queryKey: personFaceImagesQueryKey(personId) });
      if (userId !== undefined) void queryClient.invalidateQueries({ queryKey: userFaceImagesQueryKey(userId) });
    }
    previous.current = processingCount;
  }, [processingCount, personId, userId, queryClient]);
}
