// The account's append-only audit log (decision 016): who gave or withdrew consent, exported or deleted
// data, and when. Entries are written in the same transaction as the change they record, so a change
// is never left unrecorded. They hold words and ids, never media or fingerprints.
import { desc, eq } from 'drizzle-orm';
import type { AuditEntry } from '../../../shared/api-types';
import type { AuditAction } from '../../../shared/privacy';
import type { Db, Tx } from '../../db/open';
import { type UserRow, auditLog } from '../../db/schema';

export interface AuditRecord {
  /** The account whose data it was. */
  userId: number;
  /** Who did it: a signed-in user (the owner or an admin), or the app itself (the retention rule). */
  actor: UserRow | 'system';
  action: AuditAction;
  personId?: number | null;
  detail: string;
}

export async function recordAudit(db: Db | Tx, record: AuditRecord): Promise<void> {
  const { actor } = record;
  const actorRole = actor === 'system' ? 'system' : actor.id === record.userId ? 'owner' : 'admin';
  await db.insert(auditLog).values({
    userId: record.userId,
    actorId: actor === 'system' ? null : actor.id,
    actorRole,
    action: record.action,
    personId: record.personId ?? null,
    detail: record.detail,
  });
}

export async function listAudit(db: Db, userId: number): Promise<AuditEntry[]> {
  const rows = await db.select().from(auditLog).where(eq(auditLog.userId, userId)).orderBy(desc(auditLog.createdAt), desc(auditLog.id)).limit(500);
  return rows.map((row) => ({
    id: row.id,
    action: row.action as AuditAction,
    actorRole: row.actorRole,
    personId: row.personId,
    detail: row.detail,
    createdAt: row.createdAt.toISOString(),
  }));
}
