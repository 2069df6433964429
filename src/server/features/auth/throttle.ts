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

/** Throws 429 (with Retry-After) when any of the limits is used up in its current window. */
export async function assertUnderLimits(db: Db, limits: Limit[], message: (minutes: number) => string): Promise<void> {
  const rows = await db
    .select()
    .from(loginThrottle)
    .where(inArray(loginThrottle.key, limits.map((limit) => limit.key)));
  const now = Date.now();
  let retryAfterMs = 0;
  for (const row of rows) {
    const limit = limits.find((candidate) => candidate.key === row.key)!;
    const windowEnds = row.windowStart.getTime() + limit.windowMs;
    if (row.failures >= limit.max && windowEnds > now) retryAfterMs = Math.max(retryAfterMs, windowEnds - now);
  }
  if (retryAfterMs > 0) {
    throw new HttpError(429, message(Math.ceil(retryAfterMs / MINUTE)), { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) });
  }
}

/** Counts one attempt against each limit; an attempt after a window closed starts a new window. */
export async function recordAttempt(db: Db, limits: Limit[]): Promise<void> {
  for (const limit of limits) {
    const windowOpen = new Date(Date.now() - limit.windowMs).toISOString();
    await db
      .insert(loginThrottle)
      .values({ key: limit.key, failures: 1, windowStart: new Date() })
      .onConflictDoUpdate({
        target: loginThrottle.key,
        set: {
          failures: sql`case when ${loginThrottle.windowStart} < ${windowOpen}::timestamptz then 1 else ${loginThrottle.failures} + 1 end`,
          windowStart: sql`case when ${loginThrottle.windowStart} < ${windowOpen}::timestamptz then now() else ${loginThrottle.windowStart} end`,
        },
      });
  }
}

export async function clearAttempts(db: Db, limit: Limit): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, limit.key));
}
