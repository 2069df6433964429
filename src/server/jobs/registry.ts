// Every queue of the app, its payload, its retry settings and its handler, in one place (STYLE.md, after
// Immich). Start-up fails when a queue has no handler (queue.ts: assertEveryQueueHandled).
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/open';
import type { PipelinePool } from '../pipeline/worker-pool';
import type { Storage } from '../storage/storage';
import { actorTrackJob } from './actor-track';
import { dataExportGaveUp, dataExportJob } from './data-export';
import { extractFacesJob, faceExtractionGaveUp } from './face-extraction';
import { keepFaceJob } from './keep-face';
import { maintenanceJob } from './maintenance';
import type { JobHandlers, JobQueue } from './queue';
import { renderGaveUp, renderJob } from './render';
import { analyseVoiceJob, voiceAnalysisGaveUp } from './voice-analysis';

export interface JobData {
  'face-extraction': { faceVideoId: number };
  'face-extraction-gave-up': { faceVideoId: number };
  'voice-analysis': { voiceRecordingId: number };
  'voice-analysis-gave-up': { voiceRecordingId: number };
  render: { processedVideoId: number };
  'render-gave-up': { processedVideoId: number };
  'data-export': { exportId: number };
  'data-export-gave-up': { exportId: number };
  maintenance: Record<string, never>;
  'actor-track': { templateId: number };
  'keep-face': { faceImageId: number };
}
export type QueueName = keyof JobData;

interface QueueSettings {
  retryLimit: number;
  retryDelaySeconds: number;
  /** Where a job goes when its last retry fails (pg-boss copies it there with the error). */
  deadLetter?: QueueName;
  /** Bookkeeping queues are left out of the admin's queue figures. */
  internal?: boolean;
}

/** Dead-letter queues come before the queues that name them (a foreign key in pg-boss). */
export const QUEUE_SETTINGS: Record<QueueName, QueueSettings> = {
  'face-extraction-gave-up': { retryLimit: 2, retryDelaySeconds: 5, internal: true },
  'face-extraction': { retryLimit: 2, retryDelaySeconds: 10, deadLetter: 'face-extraction-gave-up' },
  'voice-analysis-gave-up': { retryLimit: 2, retryDelaySeconds: 5, internal: true },
  'voice-analysis': { retryLimit: 2, retryDelaySeconds: 10, deadLetter: 'voice-analysis-gave-up' },
  'render-gave-up': { retryLimit: 2, retryDelaySeconds: 5, internal: true },
  render: { retryLimit: 1, retryDelaySeconds: 10, deadLetter: 'render-gave-up' },
  'data-export-gave-up': { retryLimit: 2, retryDelaySeconds: 5, internal: true },
  'data-export': { retryLimit: 2, retryDelaySeconds: 10, deadLetter: 'data-export-gave-up' },
  maintenance: { retryLimit: 0, retryDelaySeconds: 60, internal: true },
  // Preparation, not a parent's work: out of the admin's figures. A failure is retried by the next sweep too.
  'actor-track': { retryLimit: 1, retryDelaySeconds: 60, internal: true },
  // Likewise: a face photo prepared ahead of its videos; their render prepares it when this failed.
  'keep-face': { retryLimit: 1, retryDelaySeconds: 60, internal: true },
};
export const QUEUE_NAMES = Object.keys(QUEUE_SETTINGS) as QueueName[];

/** What handlers work with. */
export interface JobDeps {
  db: Db;
  storage: Storage;
  pipeline: PipelinePool;
  queue: JobQueue;
  log: FastifyBaseLogger;
  /** Days raw face clips are kept after their faces were extracted (config.rawClipRetentionDays; the default when unset). */
  rawClipRetentionDays?: number;
}

export function jobHandlers(deps: JobDeps): JobHandlers {
  return {
    'face-extraction': (data, context) => extractFacesJob(deps, data, context),
    'face-extraction-gave-up': (data) => faceExtractionGaveUp(deps, data),
    'voice-analysis': (data, context) => analyseVoiceJob(deps, data, context),
    'voice-analysis-gave-up': (data) => voiceAnalysisGaveUp(deps, data),
    render: (data, context) => renderJob(deps, data, context),
    'render-gave-up': (data) => renderGaveUp(deps, data),
    'data-export': (data, context) => dataExportJob(deps, data, context),
    'data-export-gave-up': (data) => dataExportGaveUp(deps, data),
    maintenance: () => maintenanceJob(deps),
    'actor-track': (data, context) => actorTrackJob(deps, data, context),
    'keep-face': (data, context) => keepFaceJob(deps, data, context),
  };
}
