// Starts this process's job workers (npm start in embedded mode, npm run worker in server mode): every
// queue's handler, and the timer that sends the periodic maintenance job.
import type { Workers } from './queue';
import { type JobDeps, jobHandlers } from './registry';

const MAINTENANCE_EVERY_S = 5 * 60;

export async function startJobWorkers(deps: JobDeps, options: { concurrency?: number } = {}): Promise<Workers> {
  const workers = await deps.queue.startWorkers(jobHandlers(deps), {
    concurrency: options.concurrency,
    onError: (error, where) => deps.log.error({ err: error }, `job worker: ${where}`),
    onJob: (event, queue, jobId, data) => deps.log.info({ queue, jobId, data, pid: process.pid }, `job ${event}`),
  });
  const sendMaintenance = () =>
    deps.queue
      .send('maintenance', {}, { onceEverySeconds: MAINTENANCE_EVERY_S - 10 })
      .catch((error: unknown) => deps.log.warn({ err: error }, 'could not queue the maintenance job'));
  void sendMaintenance();
  const timer = setInterval(sendMaintenance, MAINTENANCE_EVERY_S * 1000);
  timer.unref();
  return {
    wake: workers.wake,
    async stop() {
      clearInterval(timer);
      await workers.stop();
    },
  };
}
