// Jobs survive their worker: the real processes (`src/server/main.ts` as npm start runs it, and
// `src/server/worker.ts` as npm run worker runs it) are killed mid-job and the job still finishes, once,
// with nothing half-written. Slow (each process loads the face engine): one clip per scenario.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../e2e/harness';
import type { FaceImage, FaceVideo } from '../../shared/api-types';
import { faceImages, faceVideos } from '../db/schema';
import { testDatabases } from '../testing/databases';
import { dataUrl, filesUnder, fixtures } from '../testing/media-fixtures';
import { memberWithPerson } from '../testing/people-kit';
import { createTestApp } from '../testing/test-app';
import { until } from '../testing/wait';

const databases = await testDatabases();
const postgres = databases.find((database) => database.name === 'postgres');
const ROOT = path.resolve(import.meta.dirname, '../../..');

interface Child {
  process: ChildProcess;
  /** Face extraction job log lines (pino JSON) seen so far. */
  jobs: { msg: string; jobId: string; pid: number }[];
  exited: Promise<void>;
}
const children: Child[] = [];

function start(entry: 'main' | 'worker', env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, `src/server/${entry}.ts`)], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', DEMO_TEMPLATES: 'off', JOB_EXPIRE_SECONDS: '3', JOB_CONCURRENCY: '1', PIPELINE_THREADS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const record: Child = { process: child, jobs: [], exited: new Promise((resolve) => child.once('exit', () => resolve())) };
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      try {
        const entryLog = JSON.parse(line) as { msg?: string; jobId?: string; queue?: string };
        if (entryLog.msg?.startsWith('job ') && entryLog.queue === 'face-extraction') record.jobs.push(entryLog as Child['jobs'][number]);
      } catch {
        // not a log line
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  children.push(record);
  return record;
}

async function kill(child: Child) {
  child.process.kill('SIGKILL');
  await child.exited;
}

afterEach(async () => {
  for (const child of children.splice(0)) if (child.process.exitCode === null && child.process.signalCode === null) await kill(child);
});



/** Every face image file on disk is a row's, and every row's file is on disk (beside it, its kept face: render/kept-face.ts). */
function expectNoStrays(dataDir: string, urls: (string | null)[]) {
  const onDisk = filesUnder(path.join(dataDir, 'media', 'face-images')).map((file) => path.basename(file).replace(/\.face$/, '')).filter((file, i, all) => all.indexOf(file) === i).sort();
  expect(onDisk).toEqual(urls.map((url) => path.basename(url!)).sort());
}

describe('a killed worker', () => {
  it('npm start killed mid-extraction: after a restart the job completes, once, with nothing half-written', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'familystar-killed-'));
    try {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '' };
      const first = start('main', env);
      await until(() => fetch(`${base}/api/health`).then((r) => r.ok).catch(() => false), Boolean, 60_000);

      let cookie = '';
      const call = async (method: string, url: string, body?: unknown) => {
        const response = await fetch(`${base}${url}`, {
          method,
          headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        cookie = response.headers.get('set-cookie')?.split(';')[0] ?? cookie;
        return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
      };
      await call('POST', '/api/register', { username: 'killtest', email: 'kill@example.com', password: 'correct horse battery', displayName: 'Kill' });
      const person = (await call('POST', '/api/people', { name: 'Grandma Rose', relationship: 'Grandmother' })).body as { id: number };
      expect((await call('POST', `/api/people/${person.id}/consent`, { basis: 'guardian' })).status).toBe(201);
      const created = await call('POST', '/api/faceVideos', { personId: person.id, name: 'Clip', expressionType: 'neutral', videoData: dataUrl(fixtures.faceClip(8), 'video/mp4') });
      expect(created.status).toBe(201);
      const videoId = (created.body as FaceVideo).id;
      const videos = () => call('GET', `/api/people/${person.id}/faceVideos`).then((r) => (r.body as FaceVideo[]).find((video) => video.id === videoId)!);

      // Killed while it works on the clip.
      await until(videos, (video) => video.processingStatus === 'processing', 60_000);
      await kill(first);

      const second = start('main', env);
      await until(() => fetch(`${base}/api/health`).then((r) => r.ok).catch(() => false), Boolean, 60_000);
      const done = await until(videos, (video) => video.processingStatus === 'completed' || video.processingStatus === 'failed', 180_000);
      expect(done.processingStatus).toBe('completed');
      // The job ends once each crop's face is prepared and kept too (render/kept-face.ts), after the clip shows completed.
      await until(() => second.jobs.filter((line) => line.msg === 'job completed').length, (count) => count > 0, 120_000);
      expect(second.jobs.filter((line) => line.msg === 'job completed')).toHaveLength(1);

      const images = (await call('GET', `/api/people/${person.id}/faceImages`)).body as FaceImage[];
      expect(images).toHaveLength(done.extractedFacesCount);
      expect(images.every((image) => image.sourceVideoId === videoId)).toBe(true);
      expectNoStrays(dataDir, images.map((image) => image.imageUrl));
      await kill(second);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 400_000);
});

describe.skipIf(!postgres)('two npm run worker processes on PostgreSQL', () => {
  it('share the queue: each job runs once, and a job whose worker is killed finishes on the other', async () => {
    const t = await createTestApp(postgres!);
    try {
      const env = { DATA_DIR: t.dataDir, DATABASE_URL: t.database.url! };
      const workers = [start('worker', env), start('worker', env)];
      const { client, personId } = await memberWithPerson(t, 'family');
      const post = async (name: string, seconds: number) => {
        const response = await client.post('/api/faceVideos', { personId, name, expressionType: 'neutral', videoData: dataUrl(fixtures.faceClip(seconds), 'video/mp4') });
        expect(response.statusCode).toBe(201);
        return (JSON.parse(response.body) as FaceVideo).id;
      };
      const status = async (id: number) => (await t.database.db.select().from(faceVideos).where(eq(faceVideos.id, id)))[0]!;

      // Four clips between two workers: every one done, each job started exactly once.
      const ids = [await post('a', 4), await post('b', 4), await post('c', 4), await post('d', 4)];
      for (const id of ids) await until(() => status(id), (video) => video.processingStatus === 'completed', 240_000);
      const started = workers.flatMap((worker) => worker.jobs.filter((line) => line.msg === 'job started'));
      expect(started, JSON.stringify(workers.map((worker) => worker.jobs))).toHaveLength(4);
      expect(new Set(started.map((line) => line.jobId)).size).toBe(4);
      expect(workers.every((worker) => worker.jobs.some((line) => line.msg === 'job completed'))).toBe(true);

      // Kill the worker that takes the next clip; the other finishes it.
      const before = workers.map((worker) => worker.jobs.length);
      const killedId = await post('e', 8);
      const taker = await until(
        async () => workers.findIndex((worker, index) => worker.jobs.slice(before[index]).some((line) => line.msg === 'job started')),
        (index) => index >= 0,
        60_000,
      );
      await kill(workers[taker]!);
      const survivor = workers[1 - taker]!;
      const done = await until(() => status(killedId), (video) => video.processingStatus === 'completed' || video.processingStatus === 'failed', 240_000);
      expect(done.processingStatus).toBe('completed');
      expect(survivor.jobs.some((line) => line.msg === 'job completed')).toBe(true);

      const rows = await t.database.db.select().from(faceImages);
      for (const id of [...ids, killedId]) {
        const video = await status(id);
        expect(rows.filter((row) => row.sourceVideoId === id)).toHaveLength(video.extractedFacesCount);
      }
      expectNoStrays(t.dataDir, rows.map((row) => row.imageUrl));
    } finally {
      // The workers go before their database does (dropping it under them only makes noise).
      for (const child of children.splice(0)) await kill(child);
      await t.close();
    }
  }, 600_000);
});
