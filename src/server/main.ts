// The app's process: read config, open the database (migrations run there), serve the API and the client,
// and (unless JOB_WORKERS=off) run the job workers in the same process.
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/open';
import { loggerOptions } from './http/log-options';
import { pruneThrottle } from './features/auth/throttle';
import { seedDemoAtFirstStart } from './features/templates/demo-templates';
import { createJobQueue } from './jobs/queue';
import { startJobWorkers } from './jobs/workers';
import { createPipelinePool } from './pipeline/worker-pool';
import { onShutdown } from './shutdown';
import { createStorage } from './storage/storage';

const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  const storage = createStorage(config.dataDir);
  // Partial uploads and half-done work of processes that died; the folders of running ones stay.
  const staleTemp = await storage.startTemp();
  const pipeline = createPipelinePool();
  // The queue's errors go to the app's logger, whose err serializer leaves out a failed query's
  // parameters (http/log-options.ts); the queue starts before the app, so until then to one like it.
  let log: Pick<FastifyBaseLogger, 'error'> = pino(loggerOptions(config.logLevel));
  const queue = await createJobQueue(database, { log: { error: (obj, message) => log.error(obj, message) } });
  const app = await buildApp({ config, db: database.db, storage, queue, pipeline });
  log = app.log;
  const workers = config.jobWorkers
    ? await startJobWorkers({ db: database.db, storage, queue, pipeline, log: app.log, rawClipRetentionDays: config.rawClipRetentionDays }, { concurrency: config.jobConcurrency })
    : undefined;

  // Expired sessions and sign-in counters whose window has closed go now and every hour.
  const prune = () =>
    Promise.all([
      app.pruneSessions().catch((error) => app.log.warn({ err: error }, 'session prune failed')),
      pruneThrottle(database.db).catch((error) => app.log.warn({ err: error }, 'sign-in counter prune failed')),
    ]);
  void prune();
  const pruneTimer = setInterval(prune, PRUNE_INTERVAL_MS);
  pruneTimer.unref();

  onShutdown(app.log, async () => {
    clearInterval(pruneTimer);
    await app.close();
    await workers?.stop();
    await queue.close();
    await pipeline.close();
    await storage.removeOwnTemp();
    await database.close();
  });
  if (staleTemp > 0) app.log.info(`removed the temporary files of ${staleTemp} stopped process(es)`);

  await app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}/db`;
  app.log.info(`FamilyStar is ready on http://localhost:${config.port} using ${where}${workers ? ', with job workers' : ''}`);
  // A fresh installation gets the demo templates, made in the background while the app serves.
  seedDemoAtFirstStart({ db: database.db, storage, dataDir: config.dataDir, log: app.log }).catch((error: unknown) =>
    app.log.error({ err: error }, 'adding the demo templates failed'),
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
