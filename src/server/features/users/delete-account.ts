// 'Delete my account' (issue 17, decision 016): DELETE /api/users/:id, by the account itself with its
// password, or by an admin for any other account. Everything of the account goes, and nothing is kept.
//
// In this order:
// 1. The password, when the account deletes itself: checked before any lock, through the sign-in
//    throttle (a stolen session cannot guess it faster than a sign-in could).
// 2. One transaction, locking in the order the rest of the app does (a person, then an account): the
//    account's people, every admin row, then the account's row `for update`. The admins are locked as
//    PATCH /api/admin/users/:id/role locks them, so two admins deleting themselves (or each other) at
//    once cannot leave none: the second sees one admin left and is refused (409). With the account's row
//    held, nothing new can be saved for it (every insert's foreign key waits on that row).
//    Inside it: the ids of its processed videos, face clips, voice recordings and exports, and the URLs
//    of all its files are read; the account's row is deleted, and the database cascades to everything
//    else (sessions, people, faces, clips, voices, pending uploads, videos, purchases, its audit log and
//    exports); its sign-in counters go (they hold its name); an admin's deletion of another account is
//    written to the ADMIN's audit log (the account's own log goes with it), without name or e-mail.
// 3. After the commit, its jobs are cancelled (queued ones never run; a running one is aborted), then
//    its files go: the whole folder of each kind it owns, and each collected URL (a file of its rows
//    kept elsewhere). Files go after the commit because a transaction that fails (the last admin, a
//    lost lock race, a crash) must leave the account whole: a file removed for a row that stays would
//    be a broken video, while a file left for a row that is gone is only an orphan (only a crash
//    between the commit and this step leaves one: no row names it, nothing serves it, and the
//    maintenance job removes the folders of accounts that are gone: removeMediaOfDeletedAccounts).
//
// Before all this, a paid subscription is cancelled with Stripe (cancelSubscription): no deleted
// account is billed again, and when Stripe cannot be reached nothing is deleted (502).
//
// A render running at that moment: in this process its signal aborts at once, in another process at
// its next heartbeat (its job is no longer active). It stops, and removes its temporary folder either
// way. If it got as far as moving its output into storage, it finds its row gone and removes what it
// moved (jobs/render.ts keep); its progress writes touch no row. Face extraction, voice analysis and
// 'Download my data' behave the same (their rows are gone: they keep nothing).
import type { FastifyBaseLogger } from 'fastify';
import { asc, eq, inArray, like, or } from 'drizzle-orm';
import { PRIVACY_MESSAGES } from '../../../shared/privacy';
import type { Db, Tx } from '../../db/open';
import {
  type UserRow,
  dataExports,
  faceImages,
  faceVideos,
  loginThrottle,
  pendingUploads,
  people,
  processedVideos,
  users,
  voiceRecordings,
} from '../../db/schema';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../../http/errors';
import type { JobQueue } from '../../jobs/queue';
import { type Storage, USER_MEDIA_KINDS } from '../../storage/storage';
import type { Payments } from '../payments/stripe';
import { recordAudit } from '../privacy/audit';
import { verifyPassword } from '../auth/passwords';
import { LIMITS, reserveSignIn } from '../auth/throttle';

/**
 * The account's own password, before it deletes itself: 400 without one, 403 when wrong. Each try
 * counts as a sign-in attempt (429 past the throttle's limits); a right one is given back.
 */
export async function confirmPassword(db: Db, user: UserRow, password: string | undefined, address: string): Promise<void> {
  if (!password) throw badRequest(PRIVACY_MESSAGES.passwordRequired);
  const attempt = await reserveSignIn(db, { username: user.username, address });
  if (!(await verifyPassword(password, user.password))) throw forbidden(PRIVACY_MESSAGES.wrongPassword);
  await attempt.succeeded();
}

/** What the transaction leaves to do after the commit. */
interface Leftovers {
  processedVideoIds: number[];
  faceVideoIds: number[];
  voiceRecordingIds: number[];
  exportIds: number[];
  urls: (string | null)[];
}

/**
 * Deletes the account `userId` with every row and file of it (see the top of the file). `actor` is the
 * account itself (its password already confirmed) or an admin. 404 when there is no such account, 409
 * when it is the last admin, 403 when an admin deleting another is no longer an admin.
 */
export async function deleteAccount(
  deps: { db: Db; storage: Storage; queue: JobQueue; payments?: Payments; log?: FastifyBaseLogger },
  actor: UserRow,
  userId: number,
): Promise<void> {
  const { db, storage, queue } = deps;
  await cancelSubscription(deps, userId);
  const leftovers = await db.transaction(async (tx): Promise<Leftovers> => {
    await tx.select({ id: people.id }).from(people).where(eq(people.userId, userId)).orderBy(asc(people.id)).for('update');
    const admins = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).orderBy(asc(users.id)).for('update');
    const [account] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!account) throw notFound('User not found');
    if (actor.id !== userId && !admins.some((admin) => admin.id === actor.id)) throw forbidden();
    if (account.role === 'admin' && admins.length === 1) throw conflict(PRIVACY_MESSAGES.lastAdmin);

    const found = await collect(tx, userId);
    await tx.delete(users).where(eq(users.id, userId));
    await forgetSignInAttempts(tx, account);
    if (actor.id !== userId) {
      await recordAudit(tx, { userId: actor.id, actor, action: 'account.deleted', detail: `Deleted the account #${userId}` });
    }
    return found;
  });

  // Jobs first, so a running one is told to stop before its inputs disappear under it.
  await Promise.all([
    ...leftovers.processedVideoIds.map((id) => queue.cancelWhere('render', { processedVideoId: id })),
    ...leftovers.faceVideoIds.map((id) => queue.cancelWhere('face-extraction', { faceVideoId: id })),
    ...leftovers.voiceRecordingIds.map((id) => queue.cancelWhere('voice-analysis', { voiceRecordingId: id })),
    ...leftovers.exportIds.map((id) => queue.cancelWhere('data-export', { exportId: id })),
  ]);
  await Promise.all(USER_MEDIA_KINDS.map((kind) => storage.removeOwner(kind, userId)));
  await Promise.all(leftovers.urls.filter((url) => isFamilyFile(storage, url)).map((url) => storage.removeUrl(url)));
}

/**
 * A paid subscription is cancelled with Stripe before anything is deleted: a deleted account must never
 * be billed again. If Stripe cannot be reached, nothing is deleted (502) and the parent tries again. The
 * last admin is refused here first, so a deletion that will be refused cancels nothing. Without Stripe
 * configured (keys removed since), nothing can be cancelled from here: the operator is told in the log.
 */
async function cancelSubscription(deps: { db: Db; payments?: Payments; log?: FastifyBaseLogger }, userId: number): Promise<void> {
  const [account] = await deps.db.select({ role: users.role, subscriptionId: users.stripeSubscriptionId }).from(users).where(eq(users.id, userId));
  if (!account?.subscriptionId) return;
  if (account.role === 'admin' && (await deps.db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'))).length === 1) {
    throw conflict(PRIVACY_MESSAGES.lastAdmin);
  }
  const stripe = deps.payments?.stripe;
  if (!stripe) {
    deps.log?.warn({ userId, subscriptionId: account.subscriptionId }, 'deleting an account whose Stripe subscription cannot be cancelled here (payments are not configured): cancel it in Stripe');
    return;
  }
  try {
    await stripe.subscriptions.cancel(account.subscriptionId);
  } catch (error) {
    // Already gone at Stripe: nothing more to cancel.
    if ((error as { statusCode?: number }).statusCode === 404) return;
    deps.log?.error({ err: error, userId }, 'could not cancel the Stripe subscription of an account being deleted');
    throw new HttpError(502, PRIVACY_MESSAGES.subscriptionNotCancelled);
  }
}

/** The ids whose jobs must stop and the URLs of every file the account's rows name. */
async function collect(tx: Tx, userId: number): Promise<Leftovers> {
  const videos = await tx
    .select({
      id: processedVideos.id,
      output: processedVideos.outputUrl,
      video: processedVideos.videoUrl,
      thumbnail: processedVideos.thumbnailUrl,
      source: processedVideos.sourceUrl,
    })
    .from(processedVideos)
    .where(eq(processedVideos.userId, userId));
  const clips = await tx.select({ id: faceVideos.id, url: faceVideos.videoUrl }).from(faceVideos).where(eq(faceVideos.userId, userId));
  const voices = await tx
    .select({ id: voiceRecordings.id, url: voiceRecordings.audioUrl })
    .from(voiceRecordings)
    .where(eq(voiceRecordings.userId, userId));
  const faces = await tx.select({ url: faceImages.imageUrl }).from(faceImages).where(eq(faceImages.userId, userId));
  const uploads = await tx.select({ url: pendingUploads.url }).from(pendingUploads).where(eq(pendingUploads.userId, userId));
  const avatars = await tx.select({ url: people.avatarUrl }).from(people).where(eq(people.userId, userId));
  const exports = await tx.select({ id: dataExports.id, url: dataExports.fileUrl }).from(dataExports).where(eq(dataExports.userId, userId));
  return {
    processedVideoIds: videos.map((row) => row.id),
    faceVideoIds: clips.map((row) => row.id),
    voiceRecordingIds: voices.map((row) => row.id),
    exportIds: exports.map((row) => row.id),
    urls: [
      ...videos.flatMap((row) => [row.output, row.video, row.thumbnail, row.source]),
      ...[clips, voices, faces, uploads, avatars, exports].flatMap((rows) => rows.map((row) => row.url)),
    ],
  };
}

/** A family's file, never a template's (shared by every account), whatever a row says. */
function isFamilyFile(storage: Storage, url: string | null): boolean {
  const file = storage.fromUrl(url);
  return file !== undefined && file.kind !== 'templates';
}

/** The throttle's counters keyed by the account's name or id (throttle.ts LIMITS): they go with the account. */
async function forgetSignInAttempts(tx: Tx, account: UserRow): Promise<void> {
  const name = account.username.toLowerCase();
  // Any address and any device ('%'); a username may hold '_', which LIKE would read as any character.
  const literal = name.replace(/[\\%_]/g, (c) => `\\${c}`);
  await tx
    .delete(loginThrottle)
    .where(
      or(
        inArray(loginThrottle.key, [LIMITS.failedLoginsPerAccount(name).key, LIMITS.accountPace(name).key]),
        like(loginThrottle.key, LIMITS.failedLoginsPerAccountAndAddress(literal, '%').key),
        like(loginThrottle.key, LIMITS.failedLoginsPerKnownDevice(account.id, '%').key),
      ),
    );
}
