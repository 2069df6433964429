import type { Db } from '../db/open';
import type { JobQueue } from '../jobs/queue';
import type { PipelinePool } from '../pipeline/worker-pool';
import type { Storage } from '../storage/storage';
import type { Sessions } from './sessions';

/** What every feature's routes are given by buildApp. */
export interface RouteDeps {
  db: Db;
  sessions: Sessions;
  storage: Storage;
  queue: JobQueue;
  pipeline: PipelinePool;
}
