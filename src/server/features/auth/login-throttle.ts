// Failed sign-ins are counted per account and per address in the database, so every web process
// shares the counts and a restart does not reset them.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/open';
import { loginThrottle } from '../../db/schema';
import { HttpError } from '../../http/errors';

export const THROTTLE = {
  windowMs: 15 * 60 * 1000,
  maxFailuresPerAccount: 5,
  maxFailuresPerAddress: 20,
} as const;

export function throttleKeys(username: string, address: string) {
  return { account: `account:${username.toLowerCase()}`, address: `address:${address}` };
}

/** Throws 429 when either key has used up its failures in the current window. */
export async function assertNotThrottled(db: Db, keys: { account: string; address: string }): Promise<void> {
  const rows = await db
    .select()
    .from(loginThrottle)
    .where(sql`${loginThrottle.key} in (${keys.account}, ${keys.address})`);
  const now = Date.now();
  let retryAfterMs = 0;
  for (const row of rows) {
    const limit = row.key === keys.account ? THROTTLE.maxFailuresPerAccount : THROTTLE.maxFailuresPerAddress;
    const windowEnds = row.windowStart.getTime() + THROTTLE.windowMs;
    if (row.failures >= limit && windowEnds > now) retryAfterMs = Math.max(retryAfterMs, windowEnds - now);
  }
  if (retryAfterMs > 0) {
    const minutes = Math.ceil(retryAfterMs / 60_000);
    throw new HttpError(
      429,
      `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) },
    );
  }
}

export async function recordFailure(db: Db, keys: { account: string; address: string }): Promise<void> {
  const windowOpen = new Date(Date.now() - THROTTLE.windowMs);
  for (const key of [keys.account, keys.address]) {
    await db
      .insert(loginThrottle)
      .values({ key, failures: 1, windowStart: new Date() })
      .onConflictDoUpdate({
        target: loginThrottle.key,
        // A failure after the window closed starts a new window.
        set: {
          failures: sql`case when ${loginThrottle.windowStart} < ${windowOpen.toISOString()}::timestamptz then 1 else ${loginThrottle.failures} + 1 end`,
          windowStart: sql`case when ${loginThrottle.windowStart} < ${windowOpen.toISOString()}::timestamptz then now() else ${loginThrottle.windowStart} end`,
        },
      });
  }
}

/** A successful sign-in clears the account's count (not the address's). */
export async function clearAccountFailures(db: Db, keys: { account: string }): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, keys.account));
}
