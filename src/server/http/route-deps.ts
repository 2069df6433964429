import type { Db } from '../db/open';
import type { Payments } from '../features/payments/stripe';
import type { JobQueue } from '../jobs/queue';
import type { PipelinePool } from '../pipeline/worker-pool';
import type { Storage } from '../storage/storage';
import type { Sessions } from './sessions';
import type { MediaLinkSigner } from './signed-links';

/** What every feature's routes are given by buildApp. */
export interface RouteDeps {
  db: Db;
  sessions: Sessions;
  storage: Storage;
  queue: JobQueue;
  pipeline: PipelinePool;
  /** Signs and checks the short-lived media URLs a TV or a download uses without the cookie. */
  mediaLinks: MediaLinkSigner;
  /** Days raw face clips are kept after processing (config.rawClipRetentionDays), shown to parents. */
  rawClipRetentionDays: number;
  /** Stripe, when configured (features/payments/stripe.ts, decision 017). */
  payments: Payments;
}
