// Attempt limits kept in the database (`login_throttle`), so every web process shares the counts and a
// restart does not reset them: failed sign-ins (per address, per account and address, per known device,
// per account), new accounts per address. Decision 003 has the numbers and why.
import { eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/open';
import { loginThrottle } from '../../db/schema';
import { HttpError } from '../../http/errors';

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

const MINUTE = 60 * 1000;
const WINDOWS = { login: 15 * MINUTE, pace: MINUTE, registration: 60 * MINUTE };
const account = (username: string) => username.toLowerCase();

export const LIMITS = {
  failedLoginsPerAddress: (address: string): Limit => ({ key: `address:${address}`, max: 20, windowMs: WINDOWS.login }),
  /** One address guessing one account: refused after 5, whatever other addresses do. */
  failedLoginsPerAccountAndAddress: (username: string, address: string): Limit => ({
    key: `account-address:${address}:${account(username)}`,
    max: 5,
    windowMs: WINDOWS.login,
  }),
  /** A browser where the account signed in before (known-device.ts): its own count, nobody else's. */
  failedLoginsPerKnownDevice: (userId: number, deviceId: string): Limit => ({ key: `device:${userId}:${deviceId}`, max: 5, windowMs: WINDOWS.login }),
  /** Every unknown device and address together: past this the account is slowed down (accountPace), not locked. */
  failedLoginsPerAccount: (username: string): Limit => ({ key: `account:${account(username)}`, max: 30, windowMs: WINDOWS.login }),
  /** Past the account's ceiling: one attempt a minute from unknown devices, for the whole account. */
  accountPace: (username: string): Limit => ({ key: `account-pace:${account(username)}`, max: 1, windowMs: WINDOWS.pace }),
  // Enough for a household (or a school behind one address) to sign up its people; not a bot's flood.
  registrationsPerAddress: (address: string): Limit => ({ key: `register:${address}`, max: 10, windowMs: WINDOWS.registration }),
};

/** How long a row may matter (pruneThrottle deletes rows whose window has closed). */
const LONGEST_WINDOW_MS = Math.max(...Object.values(WINDOWS));

export const THROTTLE_MESSAGES = {
  login: (minutes: number) => `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  register: (minutes: number) =>
    `Too many accounts were created from this address. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
};

/**
 * Counts one attempt against a limit, in one statement that returns the new count (an attempt after a
 * window closed starts a new window). Returns how long until the window closes when this attempt is
 * over the limit, else 0.
 */
async function count(db: Db, limit: Limit, now: number): Promise<number> {
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
  return row && row.failures > limit.max ? Math.max(1, row.windowStart.getTime() + limit.windowMs - now) : 0;
}

function tooMany(retryAfterMs: number, message: (minutes: number) => string): HttpError {
  return new HttpError(429, message(Math.max(1, Math.ceil(retryAfterMs / MINUTE))), { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) });
}

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
  for (const limit of limits) retryAfterMs = Math.max(retryAfterMs, await count(db, limit, now));
  if (retryAfterMs > 0) throw tooMany(retryAfterMs, message);
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

export interface SignInAttempt {
  username: string;
  address: string;
  /** The account's id when the browser is a known device of it (known-device.ts). */
  knownDevice?: { userId: number; deviceId: string };
}

/**
 * Reserves a sign-in attempt as a failure before the password is checked (429 when over a limit), and
 * returns what to do when it succeeds. Strangers cannot lock an account (issue 16, item 7):
 * - a known device is counted alone: 5 failures in 15 minutes stop that browser, and nothing else does;
 * - any other attempt counts against its address (20 for all accounts) and the account from that address
 *   (5), both refused when over; then against the account from everywhere (30), past which the account is
 *   slowed to one attempt a minute from unknown devices rather than locked.
 */
export async function reserveSignIn(db: Db, attempt: SignInAttempt): Promise<{ succeeded(): Promise<void> }> {
  const now = Date.now();
  if (attempt.knownDevice) {
    const device = LIMITS.failedLoginsPerKnownDevice(attempt.knownDevice.userId, attempt.knownDevice.deviceId);
    const retryAfterMs = await count(db, device, now);
    if (retryAfterMs > 0) throw tooMany(retryAfterMs, THROTTLE_MESSAGES.login);
    return { succeeded: () => clearAttempts(db, device) };
  }
  const address = LIMITS.failedLoginsPerAddress(attempt.address);
  const pair = LIMITS.failedLoginsPerAccountAndAddress(attempt.username, attempt.address);
  // The address's own limits first: what they refuse never reaches the account's count.
  const refused = Math.max(await count(db, address, now), await count(db, pair, now));
  if (refused > 0) throw tooMany(refused, THROTTLE_MESSAGES.login);
  const everywhere = LIMITS.failedLoginsPerAccount(attempt.username);
  if ((await count(db, everywhere, now)) > 0) {
    const paced = await count(db, LIMITS.accountPace(attempt.username), now);
    if (paced > 0) throw tooMany(paced, THROTTLE_MESSAGES.login);
  }
  return {
    // A sign-in that works clears the count of its address for this account and is given back to the
    // address and the account (their counts stay: the parent signing in mid-attack resets nothing).
    succeeded: async () => {
      await clearAttempts(db, pair);
      await releaseAttempt(db, [address, everywhere]);
    },
  };
}

/** Deletes the rows whose window has closed (they count for nothing); main.ts runs it now and then. */
export async function pruneThrottle(db: Db): Promise<number> {
  const closed = await db
    .delete(loginThrottle)
    .where(lt(loginThrottle.windowStart, new Date(Date.now() - LONGEST_WINDOW_MS)))
    .returning({ key: loginThrottle.key });
  return closed.length;
}
