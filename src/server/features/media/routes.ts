// GET /api/media/<kind>/<ownerId>/<file>: every stored file goes out through here, after an access
// check. People's media and processed videos: their owner only (faces and voices are biometric data;
// not even admins). Template media: any signed-in user; visitors get free templates' files (the public
// /simple-preview) and every template's thumbnail (the public landing page's Featured Videos), but
// never a premium original. A processed video also goes out without the cookie on a short-lived signed
// link (a download, or a TV casting it: http/signed-links.ts); a bad or expired signature falls back to
// the cookie check.
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { videoTemplates } from '../../db/schema';
import { forbidden, notFound, unauthorized } from '../../http/errors';
import { sendMediaFile } from '../../http/media-response';
import type { RouteDeps } from '../../http/route-deps';
import { MEDIA_KINDS, type MediaKind } from '../../storage/storage';

export async function mediaRoutes(app: FastifyInstance, { db, sessions, storage, mediaLinks }: RouteDeps) {
  app.get('/media/:kind/:ownerId/:fileName', async (request, reply) => {
    const params = request.params as { kind: string; ownerId: string; fileName: string };
    const file = MEDIA_KINDS.includes(params.kind as MediaKind)
      ? storage.fromUrl(`/api/media/${params.kind}/${params.ownerId}/${params.fileName}`)
      : undefined;
    if (!file) throw notFound('File not found');

    const signed = file.kind === 'processed-videos' ? mediaLinks.verify(file.url, request.query) : undefined;
    if (signed) {
      // The link is meant for another device (a TV's player), so its response may be loaded from another origin.
      reply.header('cross-origin-resource-policy', 'cross-origin');
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
    return sendMediaFile(request, reply, file.path);
  });
}
