// Personalised videos (spec 02 §7; decisions page): create (queues the render), read, list own, delete,
// live progress as Server-Sent Events (GET /api/processedVideos/:id is the plain fallback), the expected
// processing time, and short-lived signed links for a download or a TV.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { createProcessedVideoSchema, retryProcessedVideoSchema } from '../../../shared/video-rules';
import { parseId, parseInput } from '../../http/errors';
import { requireUser } from '../../http/guards';
import type { RouteDeps } from '../../http/route-deps';
import { requireSelf } from '../people/access';
import { estimateProcessing, estimateQuerySchema } from './estimate';
import {
  createMediaLink,
  createProcessedVideo,
  deleteProcessedVideo,
  listProcessedVideos,
  ownProcessedVideo,
  retryProcessedVideo,
  toProcessedVideo,
} from './service';

/** How often the event stream looks at the row: as often as progress is written (render.ts, 500 ms), so a
 * render of a few seconds still shows its bars move. One primary-key read per watching parent. */
const EVENTS_EVERY_MS = 500;
/** A stream ends after this long; EventSource reconnects by itself. */
const EVENTS_MAX_MS = 10 * 60 * 1000;

const mediaLinkRequestSchema = z.object({
  purpose: z.enum(['download', 'cast'], { error: 'The link must be for a download or for casting.' }),
});

export async function videoRoutes(app: FastifyInstance, { db, sessions, storage, queue, pipeline, mediaLinks }: RouteDeps) {
  const idParam = (request: FastifyRequest) => parseId((request.params as { id: string }).id);

  app.post('/processedVideos', async (request, reply) => {
    const user = await requireUser(sessions, request);
    const input = parseInput(createProcessedVideoSchema, request.body);
    requireSelf(user, input.userId);
    const row = await createProcessedVideo({ db, queue, storage, pipeline }, user, input);
    return reply.status(201).send(toProcessedVideo(row));
  });

  // A static segment: Fastify matches it before /processedVideos/:id whatever the order (links.test.ts checks).
  app.get('/processedVideos/estimate', async (request) => {
    await requireUser(sessions, request);
    return estimateProcessing(db, parseInput(estimateQuerySchema, request.query));
  });

  app.get('/processedVideos/:id', async (request) => {
    const user = await requireUser(sessions, request);
    return toProcessedVideo(await ownProcessedVideo(db, user, idParam(request)));
  });

  /** A failed video made again: the same choices, or `{ faceImageId }` / `{ voiceRecordingId }` changed. */
  app.post('/processedVideos/:id/retry', async (request) => {
    const user = await requireUser(sessions, request);
    const row = await ownProcessedVideo(db, user, idParam(request));
    const input = parseInput(retryProcessedVideoSchema, request.body);
    return toProcessedVideo(await retryProcessedVideo({ db, queue, storage, pipeline }, user, row, input));
  });

  app.post('/processedVideos/:id/link', async (request) => {
    const user = await requireUser(sessions, request);
    const id = idParam(request);
    const { purpose } = parseInput(mediaLinkRequestSchema, request.body);
    return createMediaLink({ storage, mediaLinks }, await ownProcessedVideo(db, user, id), purpose);
  });

  app.get('/users/:userId/processedVideos', async (request) => {
    const user = await requireUser(sessions, request);
    requireSelf(user, parseId((request.params as { userId: string }).userId));
    return (await listProcessedVideos(db, user.id)).map(toProcessedVideo);
  });

  app.delete('/processedVideos/:id', async (request, reply) => {
    const user = await requireUser(sessions, request);
    const row = await ownProcessedVideo(db, user, idParam(request));
    await deleteProcessedVideo({ db, storage, queue }, row);
    return reply.status(204).send();
  });

  /**
   * GET /api/processedVideos/:id/events: `data: <ProcessedVideo JSON>` whenever it changes, until it is
   * completed or failed (or deleted: an `event: deleted`). Polled from the database, so it works whichever
   * process renders.
   */
  app.get('/processedVideos/:id/events', async (request, reply) => {
    const user = await requireUser(sessions, request);
    const id = idParam(request);
    await ownProcessedVideo(db, user, id);
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, private', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    let last = '';
    let open = true;
    request.raw.on('close', () => (open = false));
    const started = Date.now();
    while (open && Date.now() - started < EVENTS_MAX_MS) {
      let row;
      try {
        row = await ownProcessedVideo(db, user, id);
      } catch {
        out.write('event: deleted\ndata: {}\n\n');
        break;
      }
      const json = JSON.stringify(toProcessedVideo(row));
      if (json !== last) {
        out.write(`data: ${json}\n\n`);
        last = json;
      }
      if (row.status === 'completed' || row.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, EVENTS_EVERY_MS));
    }
    out.end();
  });
}
