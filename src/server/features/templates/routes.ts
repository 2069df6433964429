// The template library's read calls (spec 02 §7). The featured list is public: the landing page shows it.
import type { FastifyInstance } from 'fastify';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/open';
import { videoTemplates } from '../../db/schema';
import { notFound, parseId } from '../../http/errors';
import { requireUser } from '../../http/guards';
import { toTemplate } from './serialize';

export async function templateRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get('/videoTemplates/featured', async () => {
    const rows = await db
      .select()
      .from(videoTemplates)
      .where(eq(videoTemplates.featured, true))
      .orderBy(desc(videoTemplates.createdAt), desc(videoTemplates.id));
    return rows.map(toTemplate);
  });

  app.get('/videoTemplates', async (request) => {
    await requireUser(db, request);
    const rows = await db.select().from(videoTemplates).orderBy(desc(videoTemplates.createdAt), desc(videoTemplates.id));
    return rows.map(toTemplate);
  });

  app.get('/videoTemplates/:id', async (request) => {
    await requireUser(db, request);
    const id = parseId((request.params as { id: string }).id);
    const [row] = await db.select().from(videoTemplates).where(eq(videoTemplates.id, id)).limit(1);
    if (!row) throw notFound('Template not found');
    return toTemplate(row);
  });
}
