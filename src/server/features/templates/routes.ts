// The template library's read calls (spec 02 §7). The featured list is public (the landing page shows
// it), and so is one free template (the public /simple-preview plays free originals; decisions page). A
// visitor asking for a premium or a missing one is told which, as a signed-in user is (issue 20).
import type { FastifyInstance } from 'fastify';
import { desc, eq } from 'drizzle-orm';
import { videoTemplates } from '../../db/schema';
import { TEMPLATE_MESSAGES } from '../../../shared/template-rules';
import { forbidden, notFound, parseId } from '../../http/errors';
import { requireUser } from '../../http/guards';
import type { RouteDeps } from '../../http/route-deps';
import type { DemoLibraryStatus } from '../../../shared/api-types';
import { demoLibraryPreparing } from './demo-status';
import { templateListCache } from './list-cache';
import { toTemplate } from './serialize';

export async function templateRoutes(app: FastifyInstance, { db, sessions }: RouteDeps) {
  app.get('/videoTemplates/featured', async () => {
    const rows = await db
      .select()
      .from(videoTemplates)
      .where(eq(videoTemplates.featured, true))
      .orderBy(desc(videoTemplates.createdAt), desc(videoTemplates.id));
    return rows.map(toTemplate);
  });

  // Public like the featured list, which the landing page shows while it is empty.
  app.get('/videoTemplates/demo-status', async (_request, reply): Promise<DemoLibraryStatus> => {
    reply.header('cache-control', 'no-store');
    return { preparing: demoLibraryPreparing(db) };
  });

  app.get('/videoTemplates', async (request, reply) => {
    await requireUser(sessions, request);
    const body = await templateListCache(db).get();
    reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'private, no-cache').header('etag', body.etag).header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === body.etag) return reply.status(304).send();
    if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) return reply.header('content-encoding', 'gzip').send(body.gzip);
    return reply.send(body.json);
  });

  app.get('/videoTemplates/:id', async (request) => {
    const id = parseId((request.params as { id: string }).id);
    const user = await sessions.currentUser(request);
    const [row] = await db.select().from(videoTemplates).where(eq(videoTemplates.id, id)).limit(1);
    if (!row) throw notFound(TEMPLATE_MESSAGES.templateNotFound);
    if (!user && row.isPremium) throw forbidden(TEMPLATE_MESSAGES.premiumOriginalNotPublic);
    return toTemplate(row);
  });
}
