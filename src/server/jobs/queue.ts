// The durable job queue: pg-boss 10.4 (11+ needs Node 22) on the app's own database, PGlite in embedded
// mode or the PostgreSQL pool in server mode, through one `executeSql` adapter (decision 009).
//
// pg-boss stores the jobs, retries them with backoff, fails a job whose worker stopped answering
// (expiry, checked by its maintenance) and copies a job out of retries to its dead-letter queue. Our own
// small fetch loop runs the handlers instead of `boss.work()`, for three reasons: a heartbeat keeps a long
// job alive while its worker lives (so a short expiry finds a killed worker's job within about a minute,
// however long a job may legitimately run); a handler gets an AbortSignal (cancelled job, lost ownership,
// shutdown); and shutdown can finish or release running jobs.
import { availableParallelism } from 'node:os';
import PgBoss from 'pg-boss';
import type { Database } from '../db/open';
import { type JobData, type QueueName, QUEUE_NAMES, QUEUE_SETTINGS } from './registry';

/**
 * How long an active job lives without a heartbeat before maintenance fails it (and retries it): with the
 * maintenance interval, a killed worker's job runs again within about a minute. JOB_EXPIRE_SECONDS
 * tunes it (tests use a few seconds).
 */
const DEFAULT_EXPIRE_SECONDS = 45;
const POLL_MS = 1_000;
const DEFAULT_SHUTDOWN_GRACE_MS = 20_000;

export interface JobContext {
  jobId: string;
  queue: QueueName;
  /** 0 on the first attempt. */
  attempt: number;
  /** No retry follows if this attempt fails. */
  lastAttempt: boolean;
  /** Aborted when the job is cancelled, expired by another process, or the worker shuts down. */
  signal: AbortSignal;
}

export type JobHandler<Q extends QueueName> = (data: JobData[Q], context: JobContext) => Promise<void>;
export type JobHandlers = { [Q in QueueName]: JobHandler<Q> };

export interface QueueStats {
  name: QueueName;
  waiting: number;
  active: number;
  /** Jobs that ran out of retries in the last 24 hours (recentFailures: the latest 10 of them). */
  failed24h: number;
  completed24h: number;
}

export interface JobFailure {
  queue: string;
  failedAt: string;
  message: string;
}

export interface JobQueue {
  /**
   * Adds a job. Higher `priority` runs first. With `onceEverySeconds`, a second job of the queue inside
   * that window is dropped (null): periodic work sent by several processes runs once.
   */
  send<Q extends QueueName>(queue: Q, data: JobData[Q], options?: { priority?: number; onceEverySeconds?: number }): Promise<string | null>;
  /** Cancels a waiting or running job (a running handler sees its signal aborted within a heartbeat). */
  cancel(queue: QueueName, jobId: string): Promise<void>;
  /** Cancels every waiting or running job of `queue` whose data contains `match` (e.g. { processedVideoId: 7 }). */
  cancelWhere<Q extends QueueName>(queue: Q, match: Partial<JobData[Q]>): Promise<number>;
  stats(): Promise<{ queues: QueueStats[]; recentFailures: JobFailure[] }>;
  /** Runs the handlers in this process until stop(); at most `concurrency` jobs at once over all queues. */
  startWorkers(handlers: JobHandlers, options?: WorkerOptions): Promise<Workers>;
  close(): Promise<void>;
}

export interface WorkerOptions {
  concurrency?: number;
  shutdownGraceMs?: number;
  onError?: (error: unknown, where: string) => void;
  /** Told when a job starts and ends (the operator's log). */
  onJob?: (event: 'started' | 'completed' | 'failed', queue: QueueName, jobId: string, data: unknown) => void;
}

export interface Workers {
  /** Stops fetching, waits for running jobs up to the grace period, then releases the rest for retry. */
  stop(): Promise<void>;
  /** Wakes the fetch loop now (a job was just sent from this process). */
  wake(): void;
}

/** The queue's own handle on its workers: it also aborts jobs it has just cancelled, if they run here. */
interface LocalWorkers extends Workers {
  abortLocal(jobIds: readonly string[]): void;
}

/** pg-boss's own sql adapter over our connection: PGlite runs one statement per query(), so plain SQL goes through exec(). */
function executorFor(database: Database): PgBoss.Db {
  if (database.pglite) {
    const pglite = database.pglite;
    return {
      executeSql: async (text: string, values?: unknown[]) =>
        values?.length ? pglite.query(text, values) : ((await pglite.exec(text)).at(-1) ?? { rows: [] }),
    };
  }
  const pool = database.pool!;
  return { executeSql: (text: string, values?: unknown[]) => pool.query(text, values) };
}

/** Fails start-up when a queue has no handler (STYLE.md: jobs are named and routed in one place). */
export function assertEveryQueueHandled(handlers: Partial<Record<string, unknown>>): asserts handlers is JobHandlers {
  const missing = QUEUE_NAMES.filter((name) => typeof handlers[name] !== 'function');
  if (missing.length) throw new Error(`No job handler for queue(s): ${missing.join(', ')}`);
}

export interface QueueOptions {
  log?: { error(obj: unknown, message: string): void };
  /** See DEFAULT_EXPIRE_SECONDS; the heartbeat runs 4 times per expiry, maintenance 3 times. */
  expireSeconds?: number;
  /** Seconds before a failed job's first retry (doubling after); the queues' own settings by default. */
  retryDelaySeconds?: number;
}

export async function createJobQueue(database: Database, options: QueueOptions = {}): Promise<JobQueue> {
  const sql = executorFor(database);
  const expireSeconds = options.expireSeconds ?? (Number(process.env.JOB_EXPIRE_SECONDS) || DEFAULT_EXPIRE_SECONDS);
  const boss = new PgBoss({
    db: sql,
    expireInSeconds: expireSeconds,
    maintenanceIntervalSeconds: Math.max(1, Math.round(expireSeconds / 3)),
    // No cron schedules: the maintenance job is sent by a timer of the workers (see startWorkers).
    schedule: false,
    archiveCompletedAfterSeconds: 60 * 60,
    deleteAfterDays: 7,
  });
  boss.on('error', (error) => options.log?.error({ err: error }, 'job queue error'));
  await boss.start();
  for (const name of QUEUE_NAMES) await ensureQueue(boss, name, expireSeconds, options.retryDelaySeconds);

  let workers: LocalWorkers | undefined;

  return {
    async send(queue, data, sendOptions = {}) {
      const once = sendOptions.onceEverySeconds;
      const id = await boss.send(queue, data as object, {
        priority: sendOptions.priority ?? 0,
        ...(once ? { singletonKey: queue, singletonSeconds: once } : {}),
      });
      if (!id && !once) throw new Error(`the job queue refused a ${queue} job`);
      workers?.wake();
      return id;
    },

    async cancel(queue, jobId) {
      await boss.cancel(queue, jobId);
      workers?.abortLocal([jobId]);
    },

    async cancelWhere(queue, match) {
      const { rows } = await sql.executeSql(
        `select id from pgboss.job where name = $1 and state in ('created', 'retry', 'active') and data @> $2::jsonb`,
        [queue, JSON.stringify(match)],
      );
      const ids = (rows as { id: string }[]).map((row) => row.id);
      if (ids.length) await boss.cancel(queue, ids);
      // A job running in this process stops now rather than at its next heartbeat.
      workers?.abortLocal(ids);
      return ids.length;
    },

    async stats() {
      // Waiting and active jobs live in pgboss.job; finished ones move to pgboss.archive after an hour.
      const { rows } = await sql.executeSql(
        `select name, state, count(*)::int as n from (
           select name, state from pgboss.job where state in ('created', 'retry', 'active')
              or (state in ('completed', 'failed') and completed_on > now() - interval '24 hours')
           union all
           select name, state from pgboss.archive where state in ('completed', 'failed') and completed_on > now() - interval '24 hours'
         ) jobs group by name, state`,
        [],
      );
      const count = (name: string, states: string[]) =>
        (rows as { name: string; state: string; n: number }[])
          .filter((row) => row.name === name && states.includes(row.state))
          .reduce((sum, row) => sum + row.n, 0);
      const queues = QUEUE_NAMES.filter((name) => !QUEUE_SETTINGS[name].internal).map((name) => ({
        name,
        waiting: count(name, ['created', 'retry']),
        active: count(name, ['active']),
        failed24h: count(name, ['failed']),
        completed24h: count(name, ['completed']),
      }));
      const failures = await sql.executeSql(
        `select name, completed_on, output from (
           select name, completed_on, output from pgboss.job where state = 'failed'
           union all
           select name, completed_on, output from pgboss.archive where state = 'failed'
         ) failed where completed_on > now() - interval '24 hours' order by completed_on desc limit 10`,
        [],
      );
      const recentFailures = (failures.rows as { name: string; completed_on: Date | string | null; output: unknown }[]).map((row) => ({
        queue: row.name,
        failedAt: row.completed_on ? new Date(row.completed_on).toISOString() : '',
        message: failureMessage(row.output),
      }));
      return { queues, recentFailures };
    },

    async startWorkers(handlers, workerOptions = {}) {
      assertEveryQueueHandled(handlers);
      if (workers) throw new Error('workers are already running in this process');
      workers = runWorkers(boss, sql, handlers, workerOptions, expireSeconds);
      return workers;
    },

    async close() {
      await workers?.stop();
      await boss.stop({ graceful: false, close: false });
    },
  };
}

async function ensureQueue(boss: PgBoss, name: QueueName, expireSeconds: number, retryDelaySeconds: number | undefined) {
  const settings = QUEUE_SETTINGS[name];
  const queueOptions: PgBoss.Queue = {
    name,
    retryLimit: settings.retryLimit,
    retryDelay: retryDelaySeconds ?? settings.retryDelaySeconds,
    retryBackoff: true,
    expireInSeconds: expireSeconds,
    ...(settings.deadLetter ? { deadLetter: settings.deadLetter } : {}),
  };
  if (await boss.getQueue(name)) {
    await boss.updateQueue(name, queueOptions);
    return;
  }
  try {
    await boss.createQueue(name, queueOptions);
  } catch (error) {
    // Another process made it at the same moment.
    if (!(await boss.getQueue(name))) throw error;
  }
}

function failureMessage(output: unknown): string {
  if (output && typeof output === 'object') {
    const value = (output as { value?: unknown; message?: unknown }).value ?? output;
    if (value && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string') {
      return (value as { message: string }).message;
    }
  }
  return typeof output === 'string' ? output : 'unknown error';
}

interface RunningJob {
  queue: QueueName;
  id: string;
  controller: AbortController;
  /** Cancelled, or expired and taken by another worker: neither complete nor fail it. */
  lost: boolean;
  done: Promise<void>;
}

function runWorkers(boss: PgBoss, sql: PgBoss.Db, handlers: JobHandlers, options: WorkerOptions, expireSeconds: number): LocalWorkers {
  const concurrency = Math.max(1, options.concurrency ?? availableParallelism());
  const grace = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  const onError = options.onError ?? (() => {});
  const onJob = options.onJob ?? (() => {});
  const running = new Set<RunningJob>();
  // Handled queues in turn, so one busy queue does not starve the others.
  const order = QUEUE_NAMES.slice();
  let nextQueue = 0;
  let stopping = false;
  let wakeUp: (() => void) | undefined;

  const heartbeat = setInterval(() => {
    for (const job of running) {
      // Pushes the expiry forward; no row means the job was cancelled, or expired and taken by another worker.
      sql
        .executeSql(
          `update pgboss.job set expire_in = (now() - started_on) + make_interval(secs => $3)
             where name = $1 and id = $2 and state = 'active' returning id`,
          [job.queue, job.id, expireSeconds],
        )
        .then(({ rows }) => {
          if (rows.length > 0 || job.lost) return;
          job.lost = true;
          job.controller.abort(new Error('the job is no longer ours (cancelled or expired)'));
        })
        .catch((error: unknown) => onError(error, 'heartbeat'));
    }
  }, (expireSeconds * 1000) / 4);
  heartbeat.unref();

  async function fetchOne(): Promise<{ queue: QueueName; job: PgBoss.JobWithMetadata<unknown> } | undefined> {
    for (let tried = 0; tried < order.length; tried++) {
      const queue = order[nextQueue]!;
      nextQueue = (nextQueue + 1) % order.length;
      const [job] = await boss.fetch<unknown>(queue, { batchSize: 1, includeMetadata: true });
      if (job) return { queue, job };
    }
    return undefined;
  }

  function start(queue: QueueName, job: PgBoss.JobWithMetadata<unknown>) {
    const controller = new AbortController();
    const context: JobContext = {
      jobId: job.id,
      queue,
      attempt: job.retryCount,
      lastAttempt: job.retryCount >= job.retryLimit,
      signal: controller.signal,
    };
    const handler = handlers[queue] as JobHandler<QueueName>;
    const entry: RunningJob = { queue, id: job.id, controller, lost: false, done: Promise.resolve() };
    entry.done = (async () => {
      onJob('started', queue, job.id, job.data);
      try {
        await handler(job.data as JobData[QueueName], context);
        if (!entry.lost) await boss.complete(queue, job.id);
        onJob('completed', queue, job.id, job.data);
      } catch (error) {
        onJob('failed', queue, job.id, job.data);
        // A failure goes back to pg-boss (a retry, or the dead-letter queue after the last one), and so
        // does a job aborted by shutdown; a job that is no longer ours is left to whoever has it.
        if (!entry.lost) {
          const message = error instanceof Error ? error.message : String(error);
          await boss.fail(queue, job.id, { message }).catch((failError: unknown) => onError(failError, 'fail'));
        }
        if (!controller.signal.aborted) onError(error, `${queue} job ${job.id}`);
      } finally {
        running.delete(entry);
        wakeUp?.();
      }
    })();
    running.add(entry);
  }

  const loop = (async () => {
    while (!stopping) {
      if (running.size < concurrency) {
        let fetched: Awaited<ReturnType<typeof fetchOne>>;
        try {
          fetched = await fetchOne();
        } catch (error) {
          onError(error, 'fetch');
          fetched = undefined;
        }
        if (fetched && !stopping) {
          start(fetched.queue, fetched.job);
          continue;
        }
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = undefined;
    }
  })();

  let stopped: Promise<void> | undefined;
  return {
    wake: () => wakeUp?.(),
    abortLocal(ids) {
      for (const job of running) {
        if (!ids.includes(job.id) || job.lost) continue;
        job.lost = true;
        job.controller.abort(new Error('the job was cancelled'));
      }
    },
    stop() {
      stopped ??= (async () => {
        stopping = true;
        wakeUp?.();
        await loop;
        const all = Promise.all([...running].map((job) => job.done));
        await Promise.race([all, new Promise((resolve) => setTimeout(resolve, grace).unref())]);
        // Still running after the grace period: abort, and hand the job back for another worker (a retry).
        for (const job of running) job.controller.abort(new Error('the worker is shutting down'));
        await all;
        clearInterval(heartbeat);
      })();
      return stopped;
    },
  };
}
