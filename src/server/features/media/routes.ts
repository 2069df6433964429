// GET /api/media/<kind>/<ownerId>/<file>: every stored file goes out through here, after an access
// check. People's media and processed videos: their owner only (faces and voices are biometric data;
// not even admins). Template media: any signed-in user; visitors get free templates' files (the public
// /simple-preview) and every template's thumbnail (the public landing page's Featured Videos), but
// never a premium original. A processed video also goes out without the cookie on a short-lived signed
// link (a download, or a TV casting it: http/signed-links.ts); a bad or expired signature falls back to
// the cookie check. A data export ('Download my data') goes to its owner the same two ways, and only
// while its export lives: past its expiry it is gone even before the sweep removes the file.
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { PRIVACY_MESSAGES } from '../../../shared/privacy';
import type { Db } from '../../db/open';
import { dataExports, videoTemplates } from '../../db/schema';
import { HttpError, forbidden, notFound, unauthorized } from '../../http/errors';
import { sendMediaFile } from '../../http/media-response';
import type { RouteDeps } from '../../http/route-deps';
import { MEDIA_KINDS, type MediaKind, type StoredFile } from '../../storage/storage';

/** A signed link may outlive the file's meaning; the export's row says whether its zip may still go out. */
async function requireLiveExport(db: Db, file: StoredFile): Promise<void> {
  const [row] = await db
    .select({ expiresAt: dataExports.expiresAt })
    .from(dataExports)
    .where(and(eq(dataExports.userId, file.ownerId), eq(dataExports.fileUrl, file.url)))
    .limit(1);
  if (!row) throw notFound('File not found');
  if (row.expiresAt.getTime() <= Date.now()) throw new HttpError(410, PRIVACY_MESSAGES.exportExpired);
}

export async function mediaRoutes(app: FastifyInstance, { db, sessions, storage, mediaLinks }: RouteDeps) {
  app.get('/media/:kind/:ownerId/:fileName', async (request, reply) => {
    const params = request.params as { kind: string; ownerId: string; fileName: string };
    const file = MEDIA_KINDS.includes(params.kind as MediaKind)
      ? storage.fromUrl(`/api/media/${params.kind}/${params.ownerId}/${params.fileName}`)
      : undefined;
    if (!file) throw notFound('File not found');

    const signed = file.kind === 'processed-videos' || file.kind === 'exports' ? mediaLinks.verify(file.url, request.query) : undefined;
    if (signed) {
      if (file.kind === 'exports') {
        await requireLiveExport(db, file);
      } else {
        // A video's link is meant for another device (a TV's player), so its response may be loaded from another origin.
        reply.header('cross-origin-resource-policy', 'cross-origin');
      }
      return sendMediaFile(request, reply, file.path, { downloadName: signed.downloadName });
    }

    const user = await sessions.currentUser(request);
    if (file.kind === 'templates') {
      if (!user) {
        const [template] = await db
          .select({ isPremium: videoTemplates.isPremium, thumbnailUrl: videoTemplates.thumbnailUrl })
          .from(videoTemplates)
          .where(eq(videoTemplates.id, file.ownerId))
          .limit(1);
        if (!template) throw notFound('File not found');
        if (template.isPremium && template.thumbnailUrl !== file.url) throw unauthorized();
      }
      return sendMediaFile(request, reply, file.path, { cache: 'template' });
    }
    if (!user) throw unauthorized();
    if (user.id !== file.ownerId) throw forbidden();
    if (file.kind === 'exports') await requireLiveExport(db, file);
    return sendMediaFile(request, reply, file.path);
  });
}
