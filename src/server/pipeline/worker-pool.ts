// Heavy pipeline work (image decoding, face detection, embeddings) runs in worker threads, never on the
// thread that answers HTTP. Both ends of the message protocol live here: `createWorkerPool` in the
// calling thread, `serveTasks` in a worker. `createPipelinePool` is the pool of pipeline-worker threads
// serving the tasks of tasks.ts.
import { createRequire } from 'node:module';
import os from 'node:os';
import { Worker, parentPort, type TransferListItem } from 'node:worker_threads';
import type { PipelineTasks } from './tasks';

/** A map of task name → `(input, context) => Promise<output>`; inputs and outputs cross threads by structured clone. */
export type TaskRegistry = Record<string, (input: never, context: never) => Promise<unknown>>;
export type TaskName<T extends TaskRegistry> = keyof T & string;
export type TaskInput<T extends TaskRegistry, N extends keyof T> = Parameters<T[N]>[0];
export type TaskOutput<T extends TaskRegistry, N extends keyof T> = Awaited<ReturnType<T[N]>>;

export interface WorkerPool<T extends TaskRegistry> {
  /**
   * Runs a task in the first free thread, or queues it (first in, first out) while all are busy.
   * `transferList` moves buffers instead of copying them (they become unusable here). Note that a
   * Uint8Array is copied with ALL of its underlying ArrayBuffer: give a frame its own buffer.
   * Rejects with the task's error, or an Error naming the task if its thread died under it.
   */
  run<N extends TaskName<T>>(
    task: N,
    input: TaskInput<T, N>,
    transferList?: readonly TransferListItem[],
    /** Called with what the task reports through its context's `progress` (a long render, say). */
    onProgress?: (value: unknown) => void,
    /**
     * Cancels the task: a queued one is dropped, a running one sees its context's `signal` aborted and is
     * expected to stop (and clean up) soon. Either way the promise rejects with the signal's reason once
     * the task has stopped, so the caller can remove what it wrote.
     */
    signal?: AbortSignal,
  ): Promise<TaskOutput<T, N>>;
  /**
   * Refuses new tasks, rejects the queued ones that have not started, waits for the running ones to
   * finish (stopping a thread in the middle of a native call, sharp's for one, can crash the process),
   * then stops the threads. Idempotent.
   */
  close(): Promise<void>;
  /** Most threads this pool runs at once. Threads start when work arrives and stay until `close`. */
  readonly size: number;
}

export type PipelinePool = WorkerPool<PipelineTasks>;

interface TaskRequest {
  id: number;
  task: string;
  input: unknown;
}
interface SentError {
  name: string;
  message: string;
  stack?: string;
}
/** Sent to a thread to abort the running task `id` (its context's signal). */
interface CancelRequest {
  cancel: number;
}
type TaskReply = { id: number; output: unknown } | { id: number; error: SentError } | { id: number; progress: unknown };

/**
 * What serveTasks adds to a task's context: `progress(value)` reaches the caller's `onProgress`, and
 * `signal` is aborted when the caller cancels the task.
 */
export interface TaskProgress {
  progress(value: unknown): void;
  signal: AbortSignal;
}

interface Job {
  id: number;
  task: string;
  input: unknown;
  transferList?: readonly TransferListItem[];
  onProgress?(value: unknown): void;
  signal?: AbortSignal;
  resolve(output: unknown): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  job?: Job;
  /** Set by the 'error' event (an uncaught exception): the thread is dying, give it no more work. */
  crash?: Error;
}

const require = createRequire(import.meta.url);

/** The thread count: `size` if given, else PIPELINE_THREADS, else the number of CPU cores (at least 1). */
export function pipelineThreadCount(size?: number): number {
  const check = (value: number, from: string) => {
    if (!Number.isInteger(value) || value < 1) throw new Error(`${from} must be a whole number of threads, at least 1 (got ${value})`);
    return value;
  };
  if (size !== undefined) return check(size, 'the pipeline pool size');
  const fromEnv = process.env.PIPELINE_THREADS?.trim();
  if (fromEnv) return check(Number(fromEnv), 'PIPELINE_THREADS');
  return Math.max(1, os.availableParallelism());
}

/**
 * Starts a worker on `entry`. A TypeScript entry (tests, `tsx`) needs tsx in the new thread: Node 20
 * ignores `--import tsx` in a worker's execArgv, and a worker does not inherit the loader hooks of the
 * thread that starts it. So the worker is a two-line module that registers tsx's hooks, then imports
 * the entry. The bundle (`npm run build:server`) starts the built .js directly.
 */
function startWorker(entry: URL): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry);
  // Resolved here: a data: URL module can only import absolute URLs.
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import { register } from ${JSON.stringify(tsxApi)};\nregister();\nawait import(${JSON.stringify(entry.href)});\n`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`));
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the task was cancelled');
}

function receivedError(sent: SentError): Error {
  const error = new Error(sent.message);
  error.name = sent.name;
  if (sent.stack) error.stack = sent.stack;
  return error;
}

/** A pool of up to `size` threads running `entry`, a module that calls `serveTasks` with the tasks of `T`. */
export function createWorkerPool<T extends TaskRegistry>(entry: URL, options: { size: number }): WorkerPool<T> {
  const size = pipelineThreadCount(options.size);
  const queue: Job[] = [];
  const threads = new Set<Thread>();
  let nextId = 1;
  let closed = false;
  let closing: Promise<void> | undefined;
  /** Called by `finish` once the last running task of a closing pool is done. */
  let drained: (() => void) | undefined;

  function finish(thread: Thread): Job | undefined {
    const job = thread.job;
    thread.job = undefined;
    // An idle thread does not keep the process alive (a script that forgets `close` still ends).
    thread.worker.unref();
    if (drained && ![...threads].some((other) => other.job)) drained();
    return job;
  }

  function spawn(): Thread {
    const thread: Thread = { worker: startWorker(entry) };
    const { worker } = thread;
    worker.on('message', (reply: TaskReply) => {
      if (reply.id !== thread.job?.id) return;
      if ('progress' in reply) {
        thread.job.onProgress?.(reply.progress);
        return;
      }
      const job = finish(thread)!;
      if (job.signal?.aborted) job.reject(abortReason(job.signal));
      else if ('error' in reply) job.reject(receivedError(reply.error));
      else job.resolve(reply.output);
      dispatch();
    });
    worker.on('messageerror', (error) => {
      const job = finish(thread);
      job?.reject(new Error(`pipeline task "${job.task}": its result could not be received (${error.message})`));
      dispatch();
    });
    worker.on('error', (error) => {
      thread.crash = error;
    });
    worker.on('exit', (code) => {
      threads.delete(thread);
      const job = finish(thread);
      if (job) {
        const why = thread.crash ? `${thread.crash.name}: ${thread.crash.message}` : `the thread exited with code ${code}`;
        job.reject(new Error(`pipeline task "${job.task}" failed: its worker thread died (${why})`));
      }
      // A replacement starts when work is waiting (not before: a thread that cannot even start must
      // not be restarted in a loop; each queued task would get its error instead).
      dispatch();
    });
    threads.add(thread);
    return thread;
  }

  function dispatch() {
    while (queue.length > 0 && !closed) {
      const thread = [...threads].find((candidate) => !candidate.job && !candidate.crash) ?? (threads.size < size ? spawn() : undefined);
      if (!thread) return;
      const job = queue.shift()!;
      thread.job = job;
      thread.worker.ref();
      try {
        thread.worker.postMessage({ id: job.id, task: job.task, input: job.input } satisfies TaskRequest, job.transferList);
      } catch (error) {
        finish(thread);
        job.reject(new Error(`pipeline task "${job.task}": its input cannot be sent to a worker thread (${(error as Error).message})`));
      }
    }
  }

  return {
    size,
    run(task, input, transferList, onProgress, signal) {
      if (closed) return Promise.reject(new Error(`the pipeline pool is closed: task "${task}" was not run`));
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      return new Promise((resolve, reject) => {
        const job: Job = {
          id: nextId++,
          task,
          input,
          resolve: resolve as (output: unknown) => void,
          reject,
          ...(transferList ? { transferList } : {}),
          ...(onProgress ? { onProgress } : {}),
          ...(signal ? { signal } : {}),
        };
        signal?.addEventListener(
          'abort',
          () => {
            const queued = queue.indexOf(job);
            if (queued >= 0) {
              queue.splice(queued, 1);
              reject(abortReason(signal));
              return;
            }
            const thread = [...threads].find((candidate) => candidate.job === job);
            thread?.worker.postMessage({ cancel: job.id } satisfies CancelRequest);
          },
          { once: true },
        );
        queue.push(job);
        dispatch();
      });
    },
    close() {
      closed = true;
      closing ??= (async () => {
        for (const job of queue.splice(0)) job.reject(new Error(`the pipeline pool closed before task "${job.task}" started`));
        if ([...threads].some((thread) => thread.job)) await new Promise<void>((resolve) => (drained = resolve));
        await Promise.all([...threads].map((thread) => thread.worker.terminate()));
      })();
      return closing;
    },
  };
}

/**
 * The worker side: answers the pool's task requests with `tasks[name](input, context)`, one at a time
 * (the pool sends a thread one task at a time). A task's error goes back as the task's rejection; an
 * uncaught exception kills the thread, and the pool rejects the task and replaces the thread.
 */
export function serveTasks<C>(tasks: Record<string, (input: never, context: C & TaskProgress) => Promise<unknown>>, context: C): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks runs in a worker thread started by a worker pool');
  const running = new Map<number, AbortController>();
  port.on('message', async (message: TaskRequest | CancelRequest) => {
    if ('cancel' in message) {
      running.get(message.cancel)?.abort(new Error('the task was cancelled'));
      return;
    }
    const { id, task, input } = message;
    const controller = new AbortController();
    running.set(id, controller);
    try {
      const run = Object.hasOwn(tasks, task) ? tasks[task] : undefined;
      if (!run) throw new Error(`unknown pipeline task "${task}"`);
      const progress = (value: unknown) => port.postMessage({ id, progress: value } satisfies TaskReply);
      port.postMessage({ id, output: await run(input as never, { ...context, progress, signal: controller.signal }) } satisfies TaskReply);
    } catch (error) {
      const { name = 'Error', message = String(error), stack } = error instanceof Error ? error : {};
      port.postMessage({ id, error: { name, message, ...(stack ? { stack } : {}) } } satisfies TaskReply);
    } finally {
      running.delete(id);
    }
  });
}

/**
 * The pool of pipeline-worker threads (size: see `pipelineThreadCount`). It finds pipeline-worker.ts
 * next to this file in the source tree, and pipeline-worker.js next to the bundle (dist/server).
 */
export function createPipelinePool(options: { size?: number } = {}): PipelinePool {
  // sharp's native libraries must be loaded by the main thread before worker threads use them: with
  // glibc they are unloaded when the first worker that loaded them exits, and the next user crashes
  // (sharp issue #2263). Loading the module decodes nothing.
  require('sharp');
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? './pipeline-worker.ts' : './pipeline-worker.js', import.meta.url);
  return createWorkerPool<PipelineTasks>(entry, { size: pipelineThreadCount(options.size) });
}
