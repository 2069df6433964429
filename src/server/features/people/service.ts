// People: the family members whose faces and voices are recorded. Creating one respects the plan's
// limit; deleting one deletes their face images, face videos and voice recordings, rows and files.
import { asc, count, eq } from 'drizzle-orm';
import type { Person } from '../../../shared/api-types';
import { type PersonInput, peopleLimitMessage } from '../../../shared/media-rules';
import { planById } from '../../../shared/plans';
import type { Db } from '../../db/open';
import { type UserRow, faceImages, faceVideos, pendingUploads, people, users, voiceRecordings } from '../../db/schema';
import { notFound, planLimit } from '../../http/errors';
import type { Storage } from '../../storage/storage';
import { MEDIA_MESSAGES } from '../../../shared/media-rules';
import { recordAudit } from '../privacy/audit';
import type { PersonRow } from './access';

export function toPerson(row: PersonRow): Person {
  return {
    id: row.id,
    userId: row.userId,
    name: row.name,
    relationship: row.relationship,
    avatarUrl: row.avatarUrl,
    createdAt: row.createdAt.toISOString(),
    consent:
      row.consentBasis && row.consentGivenAt
        ? { basis: row.consentBasis, wordingVersion: row.consentVersion ?? '', givenAt: row.consentGivenAt.toISOString(), givenBy: row.consentGivenBy }
        : null,
  };
}

export function listPeople(db: Db, userId: number): Promise<PersonRow[]> {
  return db.select().from(people).where(eq(people.userId, userId)).orderBy(asc(people.createdAt), asc(people.id));
}

/**
 * Adds a person within the plan's limit. The user's row is locked while counting, so two requests at
 * once cannot both take the last place. Admins are exempt: they run the installation (and test it),
 * and a limit on their own family would only get in their way.
 */
export async function createPerson(db: Db, user: UserRow, input: PersonInput): Promise<PersonRow> {
  return db.transaction(async (tx) => {
    const [owner] = await tx.select({ plan: users.plan, role: users.role }).from(users).where(eq(users.id, user.id)).for('update');
    if (!owner) throw notFound('User not found');
    if (owner.role !== 'admin') {
      const plan = planById(owner.plan);
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(people).where(eq(people.userId, user.id));
      if (n >= plan.maxPeople) throw planLimit(peopleLimitMessage(plan.name, plan.maxPeople));
    }
    const [row] = await tx.insert(people).values({ userId: user.id, name: input.name, relationship: input.relationship }).returning();
    return row!;
  });
}

export async function updatePerson(db: Db, personId: number, changes: Partial<PersonInput>): Promise<PersonRow> {
  const [row] = await db.update(people).set(changes).where(eq(people.id, personId)).returning();
  if (!row) throw notFound(MEDIA_MESSAGES.personNotFound);
  return row;
}

/**
 * Deletes the person (the database cascades to their face images, face videos, voice recordings and
 * pending uploads),
 * then their files. URLs are collected in the same transaction, with the person locked, so a file
 * added meanwhile either is collected or fails its insert (and removes itself).
 */
export async function deletePerson(db: Db, storage: Storage, user: UserRow, personId: number): Promise<void> {
  const urls = await db.transaction(async (tx) => {
    const [locked] = await tx.select({ id: people.id, name: people.name, userId: people.userId }).from(people).where(eq(people.id, personId)).for('update');
    if (!locked) throw notFound(MEDIA_MESSAGES.personNotFound);
    const images = await tx.select({ url: faceImages.imageUrl }).from(faceImages).where(eq(faceImages.personId, personId));
    const videos = await tx.select({ url: faceVideos.videoUrl }).from(faceVideos).where(eq(faceVideos.personId, personId));
    const voices = await tx.select({ url: voiceRecordings.audioUrl }).from(voiceRecordings).where(eq(voiceRecordings.personId, personId));
    const uploads = await tx.select({ url: pendingUploads.url }).from(pendingUploads).where(eq(pendingUploads.personId, personId));
    const [person] = await tx.delete(people).where(eq(people.id, personId)).returning({ avatarUrl: people.avatarUrl });
    await recordAudit(tx, {
      userId: locked.userId,
      actor: user,
      action: 'person.deleted',
      personId,
      detail: `Deleted ${locked.name} with ${images.length} face photo(s), ${videos.length} face clip(s) and ${voices.length} voice recording(s)`,
    });
    return [...images, ...videos, ...voices, ...uploads].map((row) => row.url).concat(person?.avatarUrl ?? null);
  });
  await Promise.all(urls.map((url) => storage.removeUrl(url)));
}
