// How many media checks (the ffmpeg, ffprobe and image-header work of an upload) run at once: at most
// `total` for everyone together and `perUser` for one user; a few more of a user wait their turn, and
// beyond that the request is refused with 429 rather than piling up work the server cannot do.
import { availableParallelism } from 'node:os';
import { MEDIA_MESSAGES } from '../../shared/media-rules';
import { HttpError } from '../http/errors';

export interface MediaLimiterOptions {
  /** Checks running at once, all users together (MEDIA_CHECKS_TOTAL; default: CPU cores). */
  total: number;
  /** Checks running at once for one user (MEDIA_CHECKS_PER_USER; default 2). */
  perUser: number;
  /** Checks of one user waiting for a slot; one more is refused with 429. */
  queuePerUser: number;
  /** How long a check may wait for a slot before it is refused with 429. */
  maxWaitMs: number;
  /** The Retry-After of a 429, in seconds. */
  retryAfterSeconds: number;
}

/** A user id, or a name for work that is not one user's (e.g. 'templates' for admins' uploads). */
export type LimiterKey = number | string;

export interface MediaLimiter {
  /** Runs `work` when a slot is free for `key`; its slot is released however it ends. */
  run<T>(key: LimiterKey, work: () => Promise<T>): Promise<T>;
  /** Checks running and waiting now. */
  load(): { running: number; waiting: number };
}

interface Waiter {
  key: LimiterKey;
  start(): void;
  timer: NodeJS.Timeout;
}

export function createMediaLimiter(options: MediaLimiterOptions): MediaLimiter {
  let running = 0;
  const runningFor = new Map<LimiterKey, number>();
  const waitingFor = new Map<LimiterKey, number>();
  // One queue over all users, oldest first; a waiter whose user is at its limit lets others pass.
  const queue: Waiter[] = [];

  const count = (map: Map<LimiterKey, number>, key: LimiterKey, by: number) => {
    const next = (map.get(key) ?? 0) + by;
    if (next > 0) map.set(key, next);
    else map.delete(key);
  };
  const hasSlot = (key: LimiterKey) => running < options.total && (runningFor.get(key) ?? 0) < options.perUser;
  const take = (key: LimiterKey) => {
    running += 1;
    count(runningFor, key, 1);
  };
  const busy = () =>
    new HttpError(429, MEDIA_MESSAGES.tooManyUploads, { 'Retry-After': String(options.retryAfterSeconds) });

  function release(key: LimiterKey) {
    running -= 1;
    count(runningFor, key, -1);
    for (let i = 0; i < queue.length && running < options.total; ) {
      const waiter = queue[i]!;
      if (!hasSlot(waiter.key)) {
        i += 1;
        continue;
      }
      queue.splice(i, 1);
      count(waitingFor, waiter.key, -1);
      clearTimeout(waiter.timer);
      take(waiter.key);
      waiter.start();
    }
  }

  // Nobody in the queue could start (release starts whoever can), so a newcomer with a free slot
  // overtakes only waiters blocked by their own user's limit.
  function acquire(key: LimiterKey): Promise<void> {
    if (hasSlot(key)) {
      take(key);
      return Promise.resolve();
    }
    if ((waitingFor.get(key) ?? 0) >= options.queuePerUser) return Promise.reject(busy());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        key,
        start: resolve,
        timer: setTimeout(() => {
          queue.splice(queue.indexOf(waiter), 1);
          count(waitingFor, key, -1);
          reject(busy());
        }, options.maxWaitMs),
      };
      waiter.timer.unref();
      queue.push(waiter);
      count(waitingFor, key, 1);
    });
  }

  return {
    async run(key, work) {
      await acquire(key);
      try {
        return await work();
      } finally {
        release(key);
      }
    },
    load: () => ({ running, waiting: queue.length }),
  };
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1 (got "${raw}")`);
  return value;
}

/** The limiter's figures: MEDIA_CHECKS_TOTAL and MEDIA_CHECKS_PER_USER from the environment, else defaults. */
export function mediaLimiterOptions(env: NodeJS.ProcessEnv = process.env): MediaLimiterOptions {
  return {
    total: wholeNumber(env, 'MEDIA_CHECKS_TOTAL', availableParallelism()),
    perUser: wholeNumber(env, 'MEDIA_CHECKS_PER_USER', 2),
    queuePerUser: 4,
    // Every check is bounded by MEDIA_TIMEOUTS; a minute of waiting means the server is overloaded.
    maxWaitMs: 60_000,
    retryAfterSeconds: 5,
  };
}

/** The process's limiter, shared by every request that checks media. */
export const mediaLimiter = createMediaLimiter(mediaLimiterOptions());
