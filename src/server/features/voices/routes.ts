// Voice recordings (spec 01 §7), each for its owner only.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MEDIA_MESSAGES, mediaNameSchema } from '../../../shared/media-rules';
import { cleanText } from '../../../shared/validation';
import { bodyTooLarge, parseId, parseInput } from '../../http/errors';
import { requireOwner, requireUser } from '../../http/guards';
import type { RouteDeps } from '../../http/route-deps';
import { consentedPerson, idField, ownPerson, requirePersonId, requireSelf } from '../people/access';
import {
  createVoiceRecording,
  deleteVoiceRecording,
  findVoiceRecording,
  listVoiceRecordings,
  setDefaultVoiceRecording,
  toVoiceRecording,
} from './service';

/** A 10 MB recording is ~13.4 MB as base64; the rest is the JSON around it. */
const VOICE_BODY_LIMIT = 14 * 1024 * 1024;

const createVoiceRecordingSchema = z.object({
  userId: idField.nullish(),
  personId: idField.optional(),
  name: mediaNameSchema,
  audioData: z.unknown().optional(),
  // `duration` is accepted and ignored: the server measures it.
  isDefault: z.boolean({ error: 'isDefault must be true or false' }).nullish(),
  type: cleanText(z.string({ error: 'type must be text' }).trim(), 'type').max(50, 'type must be at most 50 characters').nullish(),
});

export async function voiceRoutes(app: FastifyInstance, { db, sessions, storage, queue }: RouteDeps) {
  const idParam = (request: FastifyRequest) => parseId((request.params as { id: string }).id);

  app.get('/users/:userId/voiceRecordings', async (request) => {
    const user = await requireUser(sessions, request);
    requireSelf(user, parseId((request.params as { userId: string }).userId));
    return (await listVoiceRecordings(db, { userId: user.id })).map(toVoiceRecording);
  });

  app.get('/people/:id/voiceRecordings', async (request) => {
    const user = await requireUser(sessions, request);
    const person = await ownPerson(db, user, idParam(request));
    return (await listVoiceRecordings(db, { personId: person.id })).map(toVoiceRecording);
  });

  app.post(
    '/voiceRecordings',
    { bodyLimit: VOICE_BODY_LIMIT, errorHandler: bodyTooLarge(MEDIA_MESSAGES.audioTooLarge) },
    async (request, reply) => {
      const user = await requireUser(sessions, request);
      const input = parseInput(createVoiceRecordingSchema, request.body);
      requireSelf(user, input.userId);
      const person = await consentedPerson(db, user, requirePersonId(input.personId));
      const row = await createVoiceRecording({ db, storage, queue }, person, {
        audioData: input.audioData,
        name: input.name,
        isDefault: input.isDefault === true,
        type: input.type || undefined,
      });
      return reply.status(201).send(toVoiceRecording(row));
    },
  );

  app.get('/voiceRecordings/:id', async (request) => {
    const user = await requireUser(sessions, request);
    const recording = await findVoiceRecording(db, idParam(request));
    requireOwner(user, recording);
    return toVoiceRecording(recording);
  });

  app.patch('/voiceRecordings/:id/setDefault', async (request) => {
    const user = await requireUser(sessions, request);
    const recording = await findVoiceRecording(db, idParam(request));
    requireOwner(user, recording);
    return toVoiceRecording(await setDefaultVoiceRecording(db, recording));
  });

  app.delete('/voiceRecordings/:id', async (request, reply) => {
    const user = await requireUser(sessions, request);
    const recording = await findVoiceRecording(db, idParam(request));
    requireOwner(user, recording);
    await deleteVoiceRecording(db, storage, recording, user);
    return reply.status(204).send();
  });
}
