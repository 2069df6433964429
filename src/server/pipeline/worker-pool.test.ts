// The worker pool: the real pipeline worker on a real photo, then the pool's own behaviour (queueing,
// errors, a dying thread, close) with small test tasks served by a worker defined here.
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { GAZE_ASIDE } from '../../shared/face-analysis';
import { type PipelinePool, createPipelinePool, createWorkerPool, pipelineThreadCount } from './worker-pool';

const PORTRAIT = fileURLToPath(new URL('../../../assets/astronaut.jpg', import.meta.url));

describe('the pipeline pool', () => {
  const pool: PipelinePool = createPipelinePool({ size: 1 });
  afterAll(() => pool.close());

  it('analyses a photo in a worker thread', async () => {
    const analysis = await pool.run('analyseImage', { file: PORTRAIT });
    expect(analysis.width).toBe(512);
    expect(analysis.height).toBe(512);
    expect(analysis.faces).toHaveLength(1);
    const [face] = analysis.faces;
    expect(face!.embedding).toHaveLength(1024);
    expect(face!.landmarks).toHaveLength(468);
    expect(face!.expressions.happy).toBeGreaterThan(0.8);
    // She looks at the camera: read on her face turned frontal, as the video will show it.
    expect(Math.abs(analysis.gaze!)).toBeLessThan(GAZE_ASIDE);
  }, 120_000);

  it('detects faces in a frame moved to the thread, and analyses bytes', async () => {
    const { data, info } = await sharp(PORTRAIT).raw().toBuffer({ resolveWithObject: true });
    const frame = new Uint8Array(data); // its own ArrayBuffer, so the transfer moves only the frame
    const faces = await pool.run('detectFaces', { frame: { data: frame, width: info.width, height: info.height }, options: { mesh: false } }, [frame.buffer]);
    expect(frame.byteLength).toBe(0); // moved, not copied
    expect(faces).toHaveLength(1);
    expect(faces[0]!.landmarks).toBeUndefined();
    const [x, y, w] = faces[0]!.box;
    expect(Math.abs(x + w / 2 - 225)).toBeLessThan(30);
    expect(Math.abs(y + w / 2 - 120)).toBeLessThan(30);

    const bytes = new Uint8Array(await sharp(PORTRAIT).png().toBuffer());
    const fromBytes = await pool.run('analyseImage', { bytes }, [bytes.buffer]);
    expect(fromBytes.faces).toHaveLength(1);
  }, 120_000);

  it('refuses a picture over 40 megapixels and one that is not a picture, with clear errors', async () => {
    const huge = new Uint8Array(await sharp({ create: { width: 8000, height: 5001, channels: 3, background: '#808080' } }).png({ compressionLevel: 1 }).toBuffer());
    await expect(pool.run('analyseImage', { bytes: huge })).rejects.toThrow('the picture is larger than 40 megapixels');
    await expect(pool.run('analyseImage', { bytes: new Uint8Array([1, 2, 3]) })).rejects.toThrow(/^the picture could not be decoded/);
  }, 120_000);

  it('takes its task names and types from tasks.ts', () => {
    // Compile-time checks (npm run typecheck); nothing runs.
    const typed = (p: PipelinePool) => {
      // @ts-expect-error no such task
      void p.run('noSuchTask', {});
      // @ts-expect-error detectFaces takes { frame, options }
      void p.run('detectFaces', { file: PORTRAIT });
    };
    expect(typed).toBeTypeOf('function');
  });
});

describe('pipelineThreadCount', () => {
  const saved = process.env.PIPELINE_THREADS;
  afterEach(() => {
    if (saved === undefined) delete process.env.PIPELINE_THREADS;
    else process.env.PIPELINE_THREADS = saved;
  });

  it('is the size given, else PIPELINE_THREADS, else the CPU cores', () => {
    delete process.env.PIPELINE_THREADS;
    expect(pipelineThreadCount()).toBeGreaterThanOrEqual(1);
    process.env.PIPELINE_THREADS = '3';
    expect(pipelineThreadCount()).toBe(3);
    expect(pipelineThreadCount(2)).toBe(2);
    process.env.PIPELINE_THREADS = 'many';
    expect(() => pipelineThreadCount()).toThrow(/PIPELINE_THREADS must be a whole number/);
    expect(() => pipelineThreadCount(0)).toThrow(/at least 1/);
  });
});

// The test tasks, served by a worker written as a data: URL module (it registers tsx to import the
// TypeScript of worker-pool.ts, as the pool does for pipeline-worker.ts).
interface Timing {
  threadId: number;
  started: number;
  ended: number;
}
type TestTasks = {
  sleep(input: { ms: number; label: number }): Promise<Timing & { label: number }>;
  fail(input: { message: string }): Promise<never>;
  crash(input: { how: 'throw' | 'exit' }): Promise<never>;
  threadId(input: Record<string, never>): Promise<number>;
  /** Waits until its signal is aborted, then reports how long that took to reach it. */
  untilCancelled(input: Record<string, never>): Promise<never>;
};
const WORKER = `
import { register } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
register();
const { threadId } = await import('node:worker_threads');
const { serveTasks } = await import(${JSON.stringify(new URL('./worker-pool.ts', import.meta.url).href)});
serveTasks({
  async sleep({ ms, label }) {
    const now = () => performance.timeOrigin + performance.now(); // comparable across threads
    const started = now();
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { threadId, started, ended: now(), label };
  },
  async fail({ message }) { throw new TypeError(message); },
  async crash({ how }) {
    if (how === 'exit') process.exit(3);
    setTimeout(() => { throw new Error('boom in a timer'); });
    return new Promise(() => {});
  },
  async threadId() { return threadId; },
  async untilCancelled(_input, { signal }) {
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    throw new Error('stopped: ' + signal.reason.message);
  },
}, {});
`;
const testWorker = new URL(`data:text/javascript,${encodeURIComponent(WORKER)}`);

describe('a worker pool', () => {
  it('runs tasks in threads, at most `size` at once', async () => {
    const pool = createWorkerPool<TestTasks>(testWorker, { size: 2 });
    try {
      const results = await Promise.all([0, 1, 2, 3, 4].map((label) => pool.run('sleep', { ms: 300, label })));
      expect(results.map((result) => result.label)).toEqual([0, 1, 2, 3, 4]);
      expect(new Set(results.map((result) => result.threadId)).size).toBe(2);
      expect(results.every((result) => result.threadId !== 0)).toBe(true); // not the main thread
      const runningAt = (instant: number) => results.filter((other) => other.started <= instant && instant < other.ended).length;
      expect(Math.max(...results.map((result) => runningAt(result.started)))).toBe(2);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('queues tasks first in, first out', async () => {
    // One thread, so that start times are comparable (two fresh threads can start in either order).
    const pool = createWorkerPool<TestTasks>(testWorker, { size: 1 });
    try {
      const results = await Promise.all([0, 1, 2, 3].map((label) => pool.run('sleep', { ms: 20, label })));
      const byStart = [...results].sort((a, b) => a.started - b.started);
      expect(byStart.map((result) => result.label)).toEqual([0, 1, 2, 3]);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('rejects with the task’s own error, and the thread carries on', async () => {
    const pool = createWorkerPool<TestTasks>(testWorker, { size: 1 });
    try {
      const before = await pool.run('threadId', {});
      const error = await pool.run('fail', { message: 'no face in this clip' }).catch((caught: Error) => caught);
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({ name: 'TypeError', message: 'no face in this clip' });
      expect(await pool.run('threadId', {})).toBe(before);
      // @ts-expect-error not a task of TestTasks
      await expect(pool.run('nothing', {})).rejects.toThrow('unknown pipeline task "nothing"');
    } finally {
      await pool.close();
    }
  }, 60_000);

  it.each(['throw', 'exit'] as const)('rejects a task whose thread dies (%s), replaces the thread and keeps working', async (how) => {
    const pool = createWorkerPool<TestTasks>(testWorker, { size: 1 });
    try {
      const before = await pool.run('threadId', {});
      const dying = pool.run('crash', { how });
      const queued = pool.run('sleep', { ms: 10, label: 7 });
      await expect(dying).rejects.toThrow(how === 'throw' ? /pipeline task "crash" failed: its worker thread died \(Error: boom in a timer\)/ : /exited with code 3/);
      const after = await queued;
      expect(after.label).toBe(7);
      expect(after.threadId).not.toBe(before);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('closes: the running task finishes, queued and later tasks are rejected', async () => {
    const pool = createWorkerPool<TestTasks>(testWorker, { size: 1 });
    const running = pool.run('sleep', { ms: 500, label: 1 });
    const queued = pool.run('sleep', { ms: 10, label: 2 });
    const queuedError = queued.catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = pool.close();
    expect(pool.close()).toBe(closed);
    expect(await queuedError).toMatchObject({ message: 'the pipeline pool closed before task "sleep" started' });
    await expect(pool.run('threadId', {})).rejects.toThrow('the pipeline pool is closed: task "threadId" was not run');
    expect((await running).label).toBe(1);
    await closed;
  }, 60_000);

  it('cancels: a queued task is dropped, a running one sees its signal, and the thread is kept', async () => {
    const pool = createWorkerPool<TestTasks>(testWorker, { size: 1 });
    try {
      const before = await pool.run('threadId', {});
      const running = new AbortController();
      const queued = new AbortController();
      const stopping = pool.run('untilCancelled', {}, undefined, undefined, running.signal).catch((error: Error) => error);
      const dropped = pool.run('sleep', { ms: 10, label: 1 }, undefined, undefined, queued.signal).catch((error: Error) => error);
      queued.abort(new Error('deleted while waiting'));
      expect(await dropped).toMatchObject({ message: 'deleted while waiting' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      running.abort(new Error('deleted while rendering'));
      expect(await stopping).toMatchObject({ message: 'deleted while rendering' });
      const cancelled = new AbortController();
      cancelled.abort(new Error('too late'));
      await expect(pool.run('sleep', { ms: 1, label: 2 }, undefined, undefined, cancelled.signal)).rejects.toThrow('too late');
      expect(await pool.run('threadId', {})).toBe(before);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('rejects an input that cannot cross threads, without losing the thread', async () => {
    const pool = createWorkerPool<TestTasks>(testWorker, { size: 1 });
    try {
      const notCloneable = { ms: 1, label: 1, callback: () => undefined };
      await expect(pool.run('sleep', notCloneable)).rejects.toThrow(/its input cannot be sent to a worker thread/);
      expect((await pool.run('sleep', { ms: 1, label: 2 })).label).toBe(2);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
