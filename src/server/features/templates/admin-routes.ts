// The admin's template calls (spec 02 §7): list, create (JSON), update, delete, and upload (multipart).
// Admin only: 401 signed out, 403 for a user. Prices arrive in dollars and are kept in cents.
import type { FastifyInstance } from 'fastify';
import { count, desc, eq } from 'drizzle-orm';
import {
  TEMPLATE_LIMITS,
  TEMPLATE_MESSAGES,
  premiumPriceProblem,
  templateCreateSchema,
  templateUpdateSchema,
  templateUploadFieldsSchema,
} from '../../../shared/template-rules';
import { pgErrorOf } from '../../db/pg-error';
import { processedVideos, purchases, videoTemplates } from '../../db/schema';
import { badRequest, conflict, notFound, parseId, parseInput } from '../../http/errors';
import { requireAdmin } from '../../http/guards';
import { uploadBodyBytes } from '../../http/early-checks';
import type { RouteDeps } from '../../http/route-deps';
import type { Storage } from '../../storage/storage';
import { templateListCache } from './list-cache';
import { analyseNarration } from './narration';
import { toTemplate } from './serialize';
import { checkTemplateVideo, checkThumbnail, readTemplateUpload, thumbnailFromVideo } from './upload';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The old file of a changed URL is removed when it was this template's own stored file. */
async function removeReplacedFile(storage: Storage, templateId: number, before: string | null, after: string | null) {
  if (!before || before === after) return;
  const file = storage.fromUrl(before);
  if (file?.kind === 'templates' && file.ownerId === templateId) await storage.removeUrl(before);
}

export async function templateAdminRoutes(app: FastifyInstance, { db, sessions, storage, pipeline }: RouteDeps) {
  // Every successful write changes the library's list: drop it before the answer leaves.
  app.addHook('onSend', async (request, reply) => {
    if (request.method !== 'GET' && reply.statusCode < 400) templateListCache(db).invalidate();
  });
  app.get('/admin/videoTemplates', async (request) => {
    await requireAdmin(sessions, request);
    const rows = await db.select().from(videoTemplates).orderBy(desc(videoTemplates.createdAt), desc(videoTemplates.id));
    return rows.map(toTemplate);
  });

  app.post('/admin/videoTemplates', async (request, reply) => {
    await requireAdmin(sessions, request);
    const { price, ...input } = parseInput(templateCreateSchema, request.body);
    const [row] = await db
      .insert(videoTemplates)
      .values({ ...input, priceCents: input.isPremium ? price : null })
      .returning();
    return reply.status(201).send(toTemplate(row!));
  });

  app.patch('/admin/videoTemplates/:id', async (request) => {
    await requireAdmin(sessions, request);
    const id = parseId((request.params as { id: string }).id);
    const { price, ...changes } = parseInput(templateUpdateSchema, request.body);
    if (Object.keys(changes).length === 0 && price === undefined) throw badRequest(TEMPLATE_MESSAGES.nothingToUpdate);
    const [before] = await db.select().from(videoTemplates).where(eq(videoTemplates.id, id)).limit(1);
    if (!before) throw notFound(TEMPLATE_MESSAGES.templateNotFound);
    // A free template has no price; the premium rule is checked on the row as it will be.
    const isPremium = changes.isPremium ?? before.isPremium;
    const priceCents = isPremium ? (price !== undefined ? price : before.priceCents) : null;
    const problem = premiumPriceProblem(isPremium, priceCents);
    if (problem) throw badRequest(problem);
    const [after] = await db
      .update(videoTemplates)
      .set({ ...changes, priceCents })
      .where(eq(videoTemplates.id, id))
      .returning();
    if (!after) throw notFound(TEMPLATE_MESSAGES.templateNotFound);
    await removeReplacedFile(storage, id, before.videoUrl, after.videoUrl);
    await removeReplacedFile(storage, id, before.thumbnailUrl, after.thumbnailUrl);
    return toTemplate(after);
  });

  app.delete('/admin/videoTemplates/:id', async (request, reply) => {
    await requireAdmin(sessions, request);
    const id = parseId((request.params as { id: string }).id);
    const inUse = async () => {
      const [[videos], [bought]] = await Promise.all([
        db.select({ n: count() }).from(processedVideos).where(eq(processedVideos.templateId, id)),
        db.select({ n: count() }).from(purchases).where(eq(purchases.templateId, id)),
      ]);
      const reasons = [
        videos!.n ? `${plural(videos!.n, 'video')} made from it` : '',
        bought!.n ? plural(bought!.n, 'purchase') : '',
      ].filter(Boolean);
      return reasons.length
        ? `This template cannot be deleted: ${reasons.join(' and ')} would break. Edit it or unfeature it instead.`
        : undefined;
    };
    const refusal = await inUse();
    if (refusal) throw conflict(refusal);
    // The foreign keys are RESTRICT: a video started between the check and the delete still wins.
    const deleted = await db
      .delete(videoTemplates)
      .where(eq(videoTemplates.id, id))
      .returning({ id: videoTemplates.id })
      .catch(async (error: unknown) => {
        if (pgErrorOf(error)?.code === '23503') throw conflict((await inUse()) ?? 'This template is in use and cannot be deleted.');
        throw error;
      });
    if (deleted.length === 0) throw notFound(TEMPLATE_MESSAGES.templateNotFound);
    await storage.removeOwner('templates', id);
    return reply.status(204).send();
  });

  const uploadLimit = {
    bytes: uploadBodyBytes(TEMPLATE_LIMITS.videoMaxBytes, TEMPLATE_LIMITS.thumbnailMaxBytes),
    message: TEMPLATE_MESSAGES.videoTooLargeDetail,
  };
  app.post('/admin/videoTemplates/upload', { config: { uploadLimit } }, async (request, reply) => {
    await requireAdmin(sessions, request);
    const upload = await readTemplateUpload(request, storage);
    let createdId: number | undefined;
    try {
      const { price, duration: _claimed, ...fields } = parseInput(templateUploadFieldsSchema, upload.fields);
      if (!upload.video) throw badRequest(TEMPLATE_MESSAGES.missingVideo);
      const video = await checkTemplateVideo(upload.video.path, storage);
      const narration = await analyseNarration(pipeline, upload.video.path);
      const thumbnailExt = upload.thumbnail ? await checkThumbnail(upload.thumbnail.path) : 'jpg';
      upload.thumbnail ??= await thumbnailFromVideo(upload.video.path, video, storage);
      const { video: videoFile, thumbnail: thumbnailFile } = upload;

      const row = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(videoTemplates)
          .values({ ...fields, duration: video.duration, narration, priceCents: fields.isPremium ? price : null })
          .returning({ id: videoTemplates.id });
        createdId = created!.id;
        const storedVideo = await storage.moveIn(videoFile.path, 'templates', createdId, video.ext);
        const storedThumbnail = await storage.moveIn(thumbnailFile.path, 'templates', createdId, thumbnailExt);
        const [updated] = await tx
          .update(videoTemplates)
          .set({ videoUrl: storedVideo.url, thumbnailUrl: storedThumbnail.url })
          .where(eq(videoTemplates.id, createdId))
          .returning();
        return updated!;
      });
      return reply.status(201).send(toTemplate(row));
    } catch (error) {
      await upload.cleanup();
      if (createdId !== undefined) await storage.removeOwner('templates', createdId);
      throw error;
    }
  });
}
