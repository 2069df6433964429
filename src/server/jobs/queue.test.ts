// The job queue on the real databases (PGlite, and PostgreSQL when one answers) with test handlers:
// runs, retries, gives up into the dead-letter queue, cancels, shuts down gracefully.
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/open';
import { testDatabases } from '../testing/databases';
import { until as waitFor } from '../testing/wait';
import { type JobContext, type JobHandlers, type JobQueue, createJobQueue } from './queue';

const databases = await testDatabases();


const noop = async () => {};
const handlers = (overrides: Partial<JobHandlers>): JobHandlers => ({
  'face-extraction': noop,
  'face-extraction-gave-up': noop,
  'voice-analysis': noop,
  'voice-analysis-gave-up': noop,
  render: noop,
  'render-gave-up': noop,
  'data-export': noop,
  'data-export-gave-up': noop,
  maintenance: noop,
  'actor-track': noop,
  'keep-face': noop,
  ...overrides,
});

describe.each(databases)('job queue on $name', (testDatabase) => {
  let database: Database | undefined;
  let queue: JobQueue | undefined;
  afterEach(async () => {
    await queue?.close();
    await database?.close();
    queue = database = undefined;
  });

  async function open(options: { expireSeconds?: number } = {}) {
    database = await testDatabase.open();
    queue = await createJobQueue(database, { retryDelaySeconds: 0, expireSeconds: options.expireSeconds ?? 4 });
    return queue;
  }

  it('runs a job once and counts it as completed', async () => {
    const q = await open();
    const seen: number[] = [];
    await q.startWorkers(handlers({ 'face-extraction': async ({ faceVideoId }) => void seen.push(faceVideoId) }));
    await q.send('face-extraction', { faceVideoId: 7 });
    await waitFor(() => seen.length === 1);
    await waitFor(async () => (await q.stats()).queues.find((s) => s.name === 'face-extraction')!.completed24h === 1);
    const stats = await q.stats();
    expect(stats.queues.map((s) => s.name)).toEqual(['face-extraction', 'voice-analysis', 'render', 'data-export']);
    expect(stats.queues[0]).toMatchObject({ waiting: 0, active: 0, failed24h: 0, completed24h: 1 });
    expect(seen).toEqual([7]);
  });

  it('retries a failing job, then gives up into the dead-letter handler with the error kept', async () => {
    const q = await open();
    const attempts: JobContext[] = [];
    const gaveUp: number[] = [];
    await q.startWorkers(
      handlers({
        'voice-analysis': async (_data, context) => {
          attempts.push(context);
          throw new Error('decoder exploded');
        },
        'voice-analysis-gave-up': async ({ voiceRecordingId }) => void gaveUp.push(voiceRecordingId),
      }),
    );
    await q.send('voice-analysis', { voiceRecordingId: 3 });
    await waitFor(() => gaveUp.length === 1);
    expect(attempts.map((context) => [context.attempt, context.lastAttempt])).toEqual([
      [0, false],
      [1, false],
      [2, true],
    ]);
    expect(gaveUp).toEqual([3]);
    const stats = await q.stats();
    expect(stats.queues.find((s) => s.name === 'voice-analysis')!.failed24h).toBe(1);
    expect(stats.recentFailures[0]).toMatchObject({ queue: 'voice-analysis', message: 'decoder exploded' });
  });

  it('a job that fails once succeeds on its retry', async () => {
    const q = await open();
    let calls = 0;
    await q.startWorkers(
      handlers({
        'face-extraction': async () => {
          calls++;
          if (calls === 1) throw new Error('transient');
        },
      }),
    );
    await q.send('face-extraction', { faceVideoId: 1 });
    await waitFor(async () => (await q.stats()).queues[0]!.completed24h === 1);
    expect(calls).toBe(2);
  });

  it('cancelling a running job aborts its handler', async () => {
    const q = await open({ expireSeconds: 2 });
    let aborted = false;
    let started = false;
    await q.startWorkers(
      handlers({
        'face-extraction': async (_data, { signal }) => {
          started = true;
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
          aborted = true;
        },
      }),
    );
    const id = await q.send('face-extraction', { faceVideoId: 1 });
    await waitFor(() => started);
    await q.cancel('face-extraction', id!);
    await waitFor(() => aborted, Boolean, 5_000);
  });

  it('cancelling a job that runs in this process aborts it at once, not at the next heartbeat', async () => {
    // A minute's expiry: the heartbeat would notice the cancel only after 15 s.
    const q = await open({ expireSeconds: 60 });
    let started = false;
    let abortedAt = 0;
    await q.startWorkers(
      handlers({
        render: async (_data, { signal }) => {
          started = true;
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
          abortedAt = Date.now();
        },
      }),
    );
    await q.send('render', { processedVideoId: 7 });
    await waitFor(() => started);
    const cancelledAt = Date.now();
    expect(await q.cancelWhere('render', { processedVideoId: 7 })).toBe(1);
    await waitFor(() => abortedAt, Boolean, 5_000);
    expect(abortedAt - cancelledAt).toBeLessThan(5_000);
  });

  it('a long job keeps its claim past the expiry while its worker lives (heartbeat)', async () => {
    const q = await open({ expireSeconds: 2 });
    let runs = 0;
    await q.startWorkers(
      handlers({
        'face-extraction': async () => {
          runs++;
          await new Promise((resolve) => setTimeout(resolve, 5_000));
        },
      }),
    );
    await q.send('face-extraction', { faceVideoId: 1 });
    await waitFor(async () => (await q.stats()).queues[0]!.completed24h === 1, Boolean, 15_000);
    expect(runs).toBe(1);
  });

  it('stopping lets a short job finish and hands a long one back for a retry', async () => {
    const q = await open();
    const finished: number[] = [];
    const workers = await q.startWorkers(
      handlers({
        'face-extraction': async ({ faceVideoId }, { signal }) => {
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, faceVideoId * 1000);
            signal.addEventListener('abort', () => {
              clearTimeout(timer);
              reject(signal.reason as Error);
            });
          });
          finished.push(faceVideoId);
        },
      }),
      { concurrency: 2, shutdownGraceMs: 1500 },
    );
    await q.send('face-extraction', { faceVideoId: 1 });
    await q.send('face-extraction', { faceVideoId: 30 });
    await waitFor(async () => (await q.stats()).queues[0]!.active === 2);
    await workers.stop();
    expect(finished).toEqual([1]);
    const stats = await q.stats();
    // The long job is waiting for its retry, not stuck "active" until it expires.
    expect(stats.queues[0]).toMatchObject({ active: 0, waiting: 1, completed24h: 1 });
  });

  it('refuses to start when a queue has no handler', async () => {
    const q = await open();
    const partial = handlers({}) as Partial<JobHandlers>;
    delete partial.maintenance;
    await expect(q.startWorkers(partial as JobHandlers)).rejects.toThrow('No job handler for queue(s): maintenance');
  });
});
