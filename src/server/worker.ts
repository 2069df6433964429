// `npm run worker`: job workers alone, against the PostgreSQL server of DATABASE_URL (server mode). Run as
// many as you like, on as many machines as share the database and the media storage.
import { availableParallelism } from 'node:os';
import pino from 'pino';
import { loadConfig } from './config';
import { openDatabase } from './db/open';
import { loggerOptions } from './http/log-options';
import { createJobQueue } from './jobs/queue';
import { startJobWorkers } from './jobs/workers';
import { createPipelinePool } from './pipeline/worker-pool';
import { onShutdown } from './shutdown';
import { createStorage } from './storage/storage';

async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new Error(
      'npm run worker needs DATABASE_URL (a PostgreSQL server shared with the web processes). ' +
        'With the embedded database, npm start already runs the workers in its own process.',
    );
  }
  const log = pino(loggerOptions(config.logLevel));
  const database = await openDatabase(config);
  const storage = createStorage(config.dataDir);
  // Partial uploads and half-done work of processes that died; the folders of running ones stay.
  const staleTemp = await storage.startTemp();
  const pipeline = createPipelinePool();
  const queue = await createJobQueue(database, { log });
  // A worker process answers no HTTP: unless told otherwise it uses every core (npm start keeps one free).
  const concurrency = process.env.JOB_CONCURRENCY ? config.jobConcurrency : availableParallelism();
  const workers = await startJobWorkers({ db: database.db, storage, queue, pipeline, log, rawClipRetentionDays: config.rawClipRetentionDays }, { concurrency });
  onShutdown(log, async () => {
    await workers.stop();
    await queue.close();
    await pipeline.close();
    await storage.removeOwnTemp();
    await database.close();
  });
  if (staleTemp > 0) log.info(`removed the temporary files of ${staleTemp} stopped process(es)`);
  log.info(`FamilyStar worker ${process.pid} is running ${concurrency} job(s) at a time`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
