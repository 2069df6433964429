// The template library's read calls (spec 02 §7). The featured list is public: the landing page shows it.
import type { FastifyInstance } from 'fastify';
import { desc, eq } from 'drizzle-orm';
import { videoTemplates } from '../../db/schema';
import { notFound, parseId } from '../../http/errors';
import { requireUser } from '../../http/guards';
import type { RouteDeps } from '../../http/route-deps';
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

  app.get('/videoTemplates', async (request) => {
    await requireUser(sessions, request);
    const rows = await db.select().from(videoTemplates).orderBy(desc(videoTemplates.createdAt), desc(videoTemplates.id));
    return rows.map(toTemplate);
  });

  app.get('/videoTemplates/:id', async (request) => {
    await requireUser(sessions, request);
    const id = parseId((request.params as { id: string }).id);
    const [row] = await db.select().from(videoTemplates).where(eq(videoTemplates.id, id)).limit(1);
    if (!row) throw notFound('Template not found');
    return toTemplate(row);
  });
}
