import type { VideoUpload } from '@shared/api-types';
import { uploadWithProgress } from '@client/lib/api';

/** POST /api/upload/video (multipart: video, personId, userId), reporting progress 0–100. */
export function uploadVideo(
  fields: { file: File; personId: number; userId: number },
  onProgress?: (percent: number) => void,
): Promise<VideoUpload> {
  const form = new FormData();
  // Text fields first: a streaming multipart parser sees them before the file.
  form.append('personId', String(fields.personId));
  form.append('userId', String(fields.userId));
  form.append('video', fields.file, fields.file.name);
  return uploadWithProgress<VideoUpload>('/api/upload/video', form, onProgress);
}
