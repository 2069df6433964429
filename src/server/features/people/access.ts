// Ownership of people and of the ids a request names. Faces and voices are biometric data: only their
// owner reaches them, admins included (decisions page: "a user reaches only their own people").
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { MEDIA_MESSAGES } from '../../../shared/media-rules';
import { PRIVACY_MESSAGES } from '../../../shared/privacy';
import { MESSAGES } from '../../../shared/validation';
import type { Db } from '../../db/open';
import { type UserRow, people } from '../../db/schema';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { requireOwner } from '../../http/guards';

export type PersonRow = typeof people.$inferSelect;

/** An id in a JSON body or a multipart field: a positive integer, or its decimal text. */
export const idField = z.union([z.number(), z.string()], { error: MESSAGES.invalidId }).transform((value, context) => {
  const text = String(value).trim();
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > 2_147_483_647) {
    context.addIssue({ code: 'custom', message: MESSAGES.invalidId });
    return z.NEVER;
  }
  return Number(text);
});

/** A `userId` given in a path or body must be the caller's own: nobody acts for another account here. */
export function requireSelf(user: UserRow, userId: number | null | undefined): void {
  if (userId !== undefined && userId !== null && userId !== user.id) throw forbidden();
}

/** The person, when it exists (404) and belongs to the user (403). */
export async function ownPerson(db: Db, user: UserRow, personId: number): Promise<PersonRow> {
  const [person] = await db.select().from(people).where(eq(people.id, personId)).limit(1);
  if (!person) throw notFound(MEDIA_MESSAGES.personNotFound);
  requireOwner(user, person);
  return person;
}

/**
 * The person, owned by the user, with a recorded consent (403 with what to do otherwise): checked before
 * a face or voice is even read, and again under the person's lock when it is saved (defaults.ts).
 */
export async function consentedPerson(db: Db, user: UserRow, personId: number): Promise<PersonRow> {
  const person = await ownPerson(db, user, personId);
  if (!person.consentGivenAt) throw forbidden(PRIVACY_MESSAGES.consentRequired(person.name));
  return person;
}

/** A required person id from a body (missing → 400, not a number → 'Invalid id'). */
export function requirePersonId(value: number | undefined): number {
  if (value === undefined) throw badRequest('Please choose a person');
  return value;
}
