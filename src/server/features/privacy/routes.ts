// A parent's data rights (decision 016): the installation's retention settings (public: the privacy page
// shows them), the account's audit log, and 'Download my data' (a zip built by the data-export job,
// offered through a short-lived signed link). The log and the exports are their owner's only: not even
// admins read or export another family's data.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditEntry, DataExport, PrivacySettings } from '../../../shared/api-types';
import { CONSENT_WORDING_VERSION, EXPORT_LIFETIME_HOURS, PRIVACY_MESSAGES } from '../../../shared/privacy';
import type { MediaLink } from '../../../shared/video-rules';
import { dataExports, users } from '../../db/schema';
import { HttpError, conflict, notFound, parseId } from '../../http/errors';
import { requireUser } from '../../http/guards';
import type { RouteDeps } from '../../http/route-deps';
import { requireSelf } from '../people/access';
import { MEDIA_LINK_LIFETIME_MS } from '../videos/service';
import { listAudit, recordAudit } from './audit';

type DataExportRow = typeof dataExports.$inferSelect;

const HOUR_MS = 60 * 60 * 1000;

export function toDataExport(row: DataExportRow): DataExport {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    bytes: row.bytes,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** The name a downloaded export is saved under: the day it was made. */
function exportFileName(row: DataExportRow): string {
  return `familystar-data-${(row.completedAt ?? row.createdAt).toISOString().slice(0, 10)}.zip`;
}

export async function privacyRoutes(app: FastifyInstance, { db, sessions, storage, queue, mediaLinks, rawClipRetentionDays }: RouteDeps) {
  /** The signed-in user, who must be the account the path names. */
  const accountItself = async (request: FastifyRequest) => {
    const user = await requireUser(sessions, request);
    requireSelf(user, parseId((request.params as { id: string }).id));
    return user;
  };

  app.get('/privacy', async (): Promise<PrivacySettings> => ({
    rawClipRetentionDays,
    exportLifetimeHours: EXPORT_LIFETIME_HOURS,
    consentWordingVersion: CONSENT_WORDING_VERSION,
  }));

  app.get('/users/:id/audit', async (request): Promise<AuditEntry[]> => {
    const user = await requireUser(sessions, request);
    const id = parseId((request.params as { id: string }).id);
    requireSelf(user, id);
    return listAudit(db, id);
  });

  /**
   * Starts an export: the row and its job in one request. One at a time per account (409 while one is
   * being prepared); a new one replaces the previous, its zip included.
   */
  app.post('/users/:id/exports', async (request, reply) => {
    const user = await accountItself(request);
    const { row, replaced } = await db.transaction(async (tx) => {
      // The account's row locked: two requests at once cannot both start an export.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
      const [running] = await tx
        .select({ id: dataExports.id })
        .from(dataExports)
        .where(and(eq(dataExports.userId, user.id), inArray(dataExports.status, ['pending', 'processing'])))
        .limit(1);
      if (running) throw conflict(PRIVACY_MESSAGES.exportRunning);
      const replaced = await tx.delete(dataExports).where(eq(dataExports.userId, user.id)).returning({ fileUrl: dataExports.fileUrl });
      // Until it completes, the row expires a lifetime after the request: an export that never runs is swept too.
      const [row] = await tx
        .insert(dataExports)
        .values({ userId: user.id, expiresAt: new Date(Date.now() + EXPORT_LIFETIME_HOURS * HOUR_MS) })
        .returning();
      await recordAudit(tx, { userId: user.id, actor: user, action: 'export.requested', detail: 'Data export requested' });
      return { row: row!, replaced };
    });
    await Promise.all(replaced.map((old) => storage.removeUrl(old.fileUrl)));
    try {
      await queue.send('data-export', { exportId: row.id });
    } catch (error) {
      // Without its job the export would read "being prepared" until it expired: say it failed, so it can be asked again.
      await db.update(dataExports).set({ status: 'failed', error: PRIVACY_MESSAGES.exportFailed }).where(eq(dataExports.id, row.id));
      throw error;
    }
    return reply.status(202).send(toDataExport(row));
  });

  app.get('/users/:id/exports/latest', async (request, reply) => {
    const user = await accountItself(request);
    const [row] = await db
      .select()
      .from(dataExports)
      .where(eq(dataExports.userId, user.id))
      .orderBy(desc(dataExports.createdAt), desc(dataExports.id))
      .limit(1);
    // JSON null, not an empty body, when the account has none.
    return reply.type('application/json').send(JSON.stringify(row ? toDataExport(row) : null));
  });

  /** A short-lived URL of the zip that downloads without the cookie, as familystar-data-<day>.zip. */
  app.post('/users/:id/exports/:exportId/link', async (request): Promise<MediaLink> => {
    const user = await accountItself(request);
    const exportId = parseId((request.params as { exportId: string }).exportId);
    const [row] = await db
      .select()
      .from(dataExports)
      .where(and(eq(dataExports.id, exportId), eq(dataExports.userId, user.id)))
      .limit(1);
    if (!row) throw notFound(PRIVACY_MESSAGES.exportNotFound);
    const now = Date.now();
    if (row.expiresAt.getTime() <= now) throw new HttpError(410, PRIVACY_MESSAGES.exportExpired);
    const file = row.status === 'completed' ? storage.fromUrl(row.fileUrl) : undefined;
    if (file?.kind !== 'exports') throw conflict(PRIVACY_MESSAGES.exportNotReady);
    // Never beyond the export's own expiry.
    const expiresAt = new Date(Math.min(now + MEDIA_LINK_LIFETIME_MS.download, row.expiresAt.getTime()));
    const link = mediaLinks.sign(file.url, expiresAt, exportFileName(row));
    await recordAudit(db, { userId: user.id, actor: user, action: 'export.downloaded', detail: 'Download link made for your data export' });
    return { url: link.url, expiresAt: link.expiresAt.toISOString() };
  });
}
