// The template library's read calls (spec 02 §7). The featured list is public (the landing page shows
// it), and so is one free template (the public /simple-preview plays free originals; decisions page).
import type { FastifyInstance } from 'fastify';
import { desc, eq } from 'drizzle-orm';
import { videoTemplates } from '../../db/schema';
import { notFound, parseId, unauthorized } from '../../http/errors';
import { requireUser } from '../../http/guards';
import type { RouteDeps } from '../../http/route-deps';
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
    if (!user && (!row || row.isPremium)) throw unauthorized();
    if (!row) throw notFound('Template not found');
    return toTemplate(row);
  });
}
