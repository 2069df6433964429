// Attempt limits kept in the database (`login_throttle`), so every web process shares the counts and a
// restart does not reset them: failed sign-ins per account and per address, new accounts per address.
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/open';
import { loginThrottle } from '../../db/schema';
import { HttpError } from '../../http/errors';

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

const MINUTE = 60 * 1000;

export const LIMITS = {
  failedLoginsPerAccount: (username: string): Limit => ({ key: `account:${username.toLowerCase()}`, max: 5, windowMs: 15 * MINUTE }),
  failedLoginsPerAddress: (address: string): Limit => ({ key: `address:${address}`, max: 20, windowMs: 15 * MINUTE }),
  // Enough for a household (or a school behind one address) to sign up its people; not a bot's flood.
  registrationsPerAddress: (address: string): Limit => ({ key: `register:${address}`, max: 10, windowMs: 60 * MINUTE }),
};

export const THROTTLE_MESSAGES = {
  login: (minutes: number) => `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  register: (minutes: number) =>
    `Too many accounts were created from this address. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
};

/**
 * Reserves one attempt against each limit before any work is done, in one statement per limit that
 * counts it and returns the new count (an attempt after a window closed starts a new window). Parallel
 * requests each see their own count, so no burst slips past a limit while the first ones are still
 * hashing (reading the count first and writing it afterwards let 100 parallel logins through). Throws
 * 429 (with Retry-After) when this attempt is over any limit. An attempt that should not count (a
 * successful sign-in against the address, a registration that failed) is given back with releaseAttempt.
 */
export async function reserveAttempt(db: Db, limits: Limit[], message: (minutes: number) => string): Promise<void> {
  const now = Date.now();
  let retryAfterMs = 0;
  for (const limit of limits) {
    const windowOpen = new Date(now - limit.windowMs).toISOString();
    const [row] = await db
      .insert(loginThrottle)
      .values({ key: limit.key, failures: 1, windowStart: new Date() })
      .onConflictDoUpdate({
        target: loginThrottle.key,
        set: {
          failures: sql`case when ${loginThrottle.windowStart} < ${windowOpen}::timestamptz then 1 else ${loginThrottle.failures} + 1 end`,
          windowStart: sql`case when ${loginThrottle.windowStart} < ${windowOpen}::timestamptz then now() else ${loginThrottle.windowStart} end`,
        },
      })
      .returning({ failures: loginThrottle.failures, windowStart: loginThrottle.windowStart });
    if (row && row.failures > limit.max) retryAfterMs = Math.max(retryAfterMs, row.windowStart.getTime() + limit.windowMs - now);
  }
  if (retryAfterMs > 0) {
    throw new HttpError(429, message(Math.max(1, Math.ceil(retryAfterMs / MINUTE))), { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) });
  }
}

/** Gives back an attempt reserved with reserveAttempt (never below zero). */
export async function releaseAttempt(db: Db, limits: Limit[]): Promise<void> {
  await db
    .update(loginThrottle)
    .set({ failures: sql`greatest(${loginThrottle.failures} - 1, 0)` })
    .where(inArray(loginThrottle.key, limits.map((limit) => limit.key)));
}

export async function clearAttempts(db: Db, limit: Limit): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, limit.key));
}
