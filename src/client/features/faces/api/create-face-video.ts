import type { FaceVideo } from '@shared/api-types';
import { apiRequest } from '@client/lib/api';

export interface NewFaceVideo {
  userId: number;
  personId: number;
  /** '{person} - {expression title}' from the training guide. */
  name: string;
  /** The address POST /api/upload/video returned. */
  videoUrl: string;
  expressionType: string;
}

/** POST /api/faceVideos: the row starts 'pending' and the server extracts faces from it. */
export function createFaceVideo(faceVideo: NewFaceVideo): Promise<FaceVideo> {
  return apiRequest<FaceVideo>('POST', '/api/faceVideos', faceVideo);
}
