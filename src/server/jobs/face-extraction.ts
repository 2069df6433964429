// Hand-off point between saving a face video and extracting faces from it.
//
// Face extraction (sample frames, detect faces, save the best crops as face images, set
// processingStatus pending → processing → completed | failed) is the job issue's work: it plugs the
// pg-boss queue in here (`boss.send(FACE_EXTRACTION, { faceVideoId })`). Until then a new face video
// stays `pending`; nothing pretends it was processed.
import type { FastifyBaseLogger } from 'fastify';

export async function enqueueFaceExtraction(faceVideoId: number, log?: FastifyBaseLogger): Promise<void> {
  log?.debug({ faceVideoId }, 'face extraction not wired yet: face video stays pending');
}
