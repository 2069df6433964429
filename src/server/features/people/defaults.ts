// A person's default face image and default voice recording: at most one each (a partial unique index
// says so), the first one automatically, any other on request, and when the default is deleted the
// newest remaining one takes its place (a person with faces or voices always has a default).
// Every change runs in a transaction holding the person's row, so concurrent requests queue.
import { and, desc, eq, ne } from 'drizzle-orm';
import type { Db, Tx } from '../../db/open';
import { faceImages, people, voiceRecordings } from '../../db/schema';
import { forbidden, notFound } from '../../http/errors';
import { PRIVACY_MESSAGES } from '../../../shared/privacy';
import { MEDIA_MESSAGES } from '../../../shared/media-rules';

type DefaultTable = typeof faceImages | typeof voiceRecordings;

/**
 * Runs `work` with the person's row locked (404 when the person is gone). With `needsConsent`, the
 * person's consent is checked under the lock (403 without it): a face or voice saved while consent is
 * withdrawn either lands before the withdrawal (which then deletes it) or is refused.
 */
export async function withPersonLocked<T>(db: Db, personId: number, work: (tx: Tx) => Promise<T>, options: { needsConsent?: boolean } = {}): Promise<T> {
  return db.transaction(async (tx) => {
    const [person] = await tx
      .select({ id: people.id, name: people.name, consentGivenAt: people.consentGivenAt })
      .from(people)
      .where(eq(people.id, personId))
      .for('update');
    if (!person) throw notFound(MEDIA_MESSAGES.personNotFound);
    if (options.needsConsent && !person.consentGivenAt) throw forbidden(PRIVACY_MESSAGES.consentRequired(person.name));
    return work(tx);
  });
}

/** Whether a new row should be the default: asked for, or the person has none yet. */
export async function shouldBecomeDefault(tx: Tx, table: DefaultTable, personId: number, asked: boolean): Promise<boolean> {
  if (asked) return true;
  const [current] = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.personId, personId), eq(table.isDefault, true)))
    .limit(1);
  return !current;
}

/** Clears the person's current default (before another row is inserted or set as default). */
export async function clearDefault(tx: Tx, table: DefaultTable, personId: number, exceptId?: number): Promise<void> {
  const others = exceptId === undefined ? undefined : ne(table.id, exceptId);
  await tx
    .update(table)
    .set({ isDefault: false })
    .where(and(eq(table.personId, personId), eq(table.isDefault, true), others));
}

/** Makes the newest remaining row of the person the default, when they have rows but no default. */
export async function promoteNewest(tx: Tx, table: DefaultTable, personId: number): Promise<void> {
  const [current] = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.personId, personId), eq(table.isDefault, true)))
    .limit(1);
  if (current) return;
  const [newest] = await tx
    .select({ id: table.id })
    .from(table)
    .where(eq(table.personId, personId))
    .orderBy(desc(table.createdAt), desc(table.id))
    .limit(1);
  if (newest) await tx.update(table).set({ isDefault: true }).where(eq(table.id, newest.id));
}
