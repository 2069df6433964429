// Builds the real app on a test database and gives tests a cookie-keeping client over app.inject.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type AppDeps, buildApp } from '../app';
import type { Database } from '../db/open';
import { type JobQueue, type Workers, createJobQueue } from '../jobs/queue';
import { startJobWorkers } from '../jobs/workers';
import { type PipelinePool, createPipelinePool } from '../pipeline/worker-pool';
import { type Storage, createStorage } from '../storage/storage';
import type { TestDatabase } from './databases';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  storage: Storage;
  queue: JobQueue;
  pipeline: PipelinePool;
  /** Running job workers, when asked for (`{ workers: true }`): jobs sent by routes then really run. */
  workers?: Workers;
  /** The temporary DATA_DIR holding this app's media; removed on close. */
  dataDir: string;
  /** A new client with its own cookie jar and its own remote address. */
  client(): TestClient;
  close(): Promise<void>;
}

/**
 * The real app on a fresh database and data folder. Routes queue jobs for real; they run only with
 * `workers: true` (face extraction and voice analysis then happen, in the pipeline's threads).
 */
export async function createTestApp(testDatabase: TestDatabase, options: { workers?: boolean } = {}): Promise<TestApp> {
  const database = await testDatabase.open();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'familystar-api-'));
  const storage = createStorage(dataDir);
  const queue = await createJobQueue(database, { expireSeconds: 10, retryDelaySeconds: 1 });
  // One thread: test files run two at a time on two cores.
  const pipeline = createPipelinePool({ size: 1 });
  const app = await buildApp({
    db: database.db,
    storage,
    queue,
    pipeline,
    logger: false,
    config: {
      sessionSecret: randomBytes(32).toString('hex'),
      cookieSecure: 'auto',
      trustProxy: false,
      logLevel: 'silent',
      clientDir: '/nonexistent',
    },
  });
  await app.ready();
  const workers = options.workers ? await startJobWorkers({ db: database.db, storage, queue, pipeline, log: app.log }, { concurrency: 1 }) : undefined;
  return {
    app,
    database,
    storage,
    queue,
    pipeline,
    workers,
    dataDir,
    client: () => new TestClient(app),
    async close() {
      await app.close();
      await workers?.stop();
      await queue.close();
      await pipeline.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second app on the suite's database, media, queue and pipeline, with other settings: a proxy in front
 * (`config.trustProxy`), its log read (`logStream`, at level info), short timeouts. The caller closes it.
 */
export function anotherApp(t: TestApp, options: { config?: Partial<AppDeps['config']>; logStream?: AppDeps['logStream']; timeouts?: AppDeps['timeouts'] } = {}) {
  return buildApp({
    db: t.database.db,
    storage: t.storage,
    queue: t.queue,
    pipeline: t.pipeline,
    logger: options.logStream !== undefined,
    logStream: options.logStream,
    timeouts: options.timeouts,
    config: {
      sessionSecret: randomBytes(32).toString('hex'),
      cookieSecure: 'auto',
      trustProxy: false,
      logLevel: options.logStream ? 'info' : 'silent',
      clientDir: '/nonexistent',
      ...options.config,
    },
  });
}

let addressCounter = 0;

export class TestClient {
  private cookies = new Map<string, string>();
  /** Each client looks like another machine, so per-address limits do not leak between tests. */
  readonly remoteAddress = `10.0.${Math.floor(++addressCounter / 250)}.${(addressCounter % 250) + 1}`;

  constructor(private readonly app: FastifyInstance) {}

  async request(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.app.inject({
      method: method as 'GET',
      url,
      remoteAddress: this.remoteAddress,
      // A raw string body is sent as JSON unless the test says otherwise.
      headers: { ...(typeof body === 'string' ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}), ...headers },
      ...(body === undefined ? {} : typeof body === 'string' ? { payload: body } : { payload: body as object }),
    });
    for (const set of response.cookies as { name: string; value: string; expires?: Date; maxAge?: number }[]) {
      const expired = set.value === '' || (set.expires && set.expires.getTime() <= Date.now()) || set.maxAge === 0;
      if (expired) this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    return response;
  }

  get = (url: string) => this.request('GET', url);
  post = (url: string, body?: unknown) => this.request('POST', url, body);
  patch = (url: string, body?: unknown) => this.request('PATCH', url, body);
  delete = (url: string) => this.request('DELETE', url);

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Registers a new account and stays signed in as it. */
  async register(overrides: Partial<Record<'username' | 'email' | 'password' | 'displayName', string>> = {}) {
    const unique = randomBytes(4).toString('hex');
    const body = {
      username: `user_${unique}`,
      email: `user_${unique}@example.com`,
      password: 'correct horse battery',
      displayName: `User ${unique}`,
      ...overrides,
    };
    const response = await this.post('/api/register', body);
    if (response.statusCode !== 201) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
    return { ...body, user: json<{ id: number; role: string }>(response) };
  }
}

export function json<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return JSON.parse(response.body) as T;
}
