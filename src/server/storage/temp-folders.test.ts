// Temporary files live in a folder per process (DATA_DIR/tmp/<host>_<pid>_<id>), so processes sharing
// DATA_DIR never remove each other's uploads in flight: a process's start removes only the folders of
// processes that are gone, and a clean stop removes its own (issue 16, item 9).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../e2e/harness';
import { loginThrottle } from '../db/schema';
import { testDatabases } from '../testing/databases';
import { filesUnder } from '../testing/media-fixtures';
import { until } from '../testing/wait';
import { TEMP_HOST, createStorage } from './storage';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const databases = await testDatabases();
const postgres = databases.find((database) => database.name === 'postgres');

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function run(args: string[], env: Record<string, string> = {}): { child: ChildProcess; exited: Promise<void>; output: () => string } {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  children.push(child);
  return { child, exited: new Promise((resolve) => child.once('exit', () => resolve())), output: () => output };
}

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  const { child, exited } = run(['-e', '']);
  await exited;
  return child.pid!;
}

/** A process that stays alive until the suite ends (stands for another web process or a worker). */
function livePid(): number {
  return run(['-e', 'setTimeout(() => {}, 10 * 60 * 1000)']).child.pid!;
}

/** A process's temporary folder with one file in it, as its upload in flight. */
function folderOf(tmp: string, host: string, pid: number, file = 'upload-in-flight'): string {
  const folder = path.join(tmp, `${host}_${pid}_${Math.random().toString(16).slice(2, 10).padEnd(8, '0')}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, file), 'partial');
  return folder;
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60 * 1000);
const foldersOf = (tmp: string, pid: number) => readdirSync(tmp).filter((name) => name.startsWith(`${TEMP_HOST}_${pid}_`));

describe('temporary folders of the real processes', () => {
  it('a start removes the folders of processes that are gone and keeps those of running ones, and prunes closed sign-in counters; a clean stop removes its own folder', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'familystar-temp-'));
    const database = postgres ? await postgres.open() : undefined;
    try {
      const tmp = path.join(dataDir, 'tmp');
      const crashed = folderOf(tmp, TEMP_HOST, await deadPid());
      const running = folderOf(tmp, TEMP_HOST, livePid());
      const otherHost = folderOf(tmp, 'another-machine', 4242);
      // Another machine's (or container's) process that stopped touching its folder ten minutes ago.
      const otherHostGone = folderOf(tmp, 'another-machine', 4343);
      utimesSync(otherHostGone, minutesAgo(11), minutesAgo(11));

      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const env = {
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: database?.url ?? '',
        DEMO_TEMPLATES: 'off',
        JOB_CONCURRENCY: '1',
        PIPELINE_THREADS: '1',
        LOG_LEVEL: 'info',
      };
      const healthy = () => until(() => fetch(`${base}/api/health`).then((r) => r.ok).catch(() => false), Boolean, 90_000);
      const main = () => run(['--import', 'tsx', 'src/server/main.ts'], env);

      // The sign-in counters are pruned at start too (main.ts's hourly prune), checked here on PostgreSQL.
      await database?.db.insert(loginThrottle).values({ key: 'address:192.0.2.9', failures: 20, windowStart: new Date(Date.now() - 2 * 60 * 60 * 1000) });

      const first = main();
      await healthy();
      if (database) await until(() => database.db.select().from(loginThrottle), (rows) => rows.length === 0, 10_000);
      expect(existsSync(crashed), 'the crashed process’s partial upload').toBe(false);
      expect(existsSync(otherHostGone), 'the silent folder of another machine').toBe(false);
      expect(filesUnder(running)).toEqual(['upload-in-flight']);
      expect(filesUnder(otherHost)).toEqual(['upload-in-flight']);
      const [firstFolder] = foldersOf(tmp, first.child.pid!);
      expect(firstFolder).toBeDefined();
      writeFileSync(path.join(tmp, firstFolder!, 'upload-in-flight'), 'partial');

      if (database) {
        // A worker process starting on the same DATA_DIR leaves the web process's upload alone; its clean
        // stop removes its own folder only.
        const worker = run(['--import', 'tsx', 'src/server/worker.ts'], env);
        await until(() => worker.output().includes('is running'), Boolean, 90_000);
        expect(foldersOf(tmp, worker.child.pid!)).toHaveLength(1);
        expect(filesUnder(path.join(tmp, firstFolder!))).toEqual(['upload-in-flight']);
        worker.child.kill('SIGTERM');
        await worker.exited;
        expect(worker.child.exitCode).toBe(0);
        expect(foldersOf(tmp, worker.child.pid!)).toEqual([]);
      }

      // The web process crashes: the next start removes what it left.
      first.child.kill('SIGKILL');
      await first.exited;
      const second = main();
      await healthy();
      expect(foldersOf(tmp, first.child.pid!)).toEqual([]);
      expect(foldersOf(tmp, second.child.pid!)).toHaveLength(1);
      second.child.kill('SIGTERM');
      await second.exited;
      expect(second.child.exitCode, second.output().slice(-2000)).toBe(0);
      expect(foldersOf(tmp, second.child.pid!)).toEqual([]);
      // Still there: the running process's and the other machine's.
      expect(filesUnder(tmp).sort()).toEqual([path.relative(tmp, path.join(otherHost, 'upload-in-flight')), path.relative(tmp, path.join(running, 'upload-in-flight'))].sort());
    } finally {
      await database?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('the periodic sweep of temporary files', () => {
  it('removes gone processes’ folders and old files in running ones, and keeps the rest', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'familystar-temp-'));
    try {
      const tmp = path.join(dataDir, 'tmp');
      const storage = createStorage(dataDir);
      const longAgo = minutesAgo(7 * 60);

      const fresh = await storage.tempPath();
      writeFileSync(fresh, 'x');
      const stale = await storage.tempPath();
      writeFileSync(stale, 'x');
      utimesSync(stale, longAgo, longAgo);
      const crashed = folderOf(tmp, TEMP_HOST, await deadPid());
      // This pid's folder from an earlier life (a container's server is pid 1 every time).
      const earlierLife = folderOf(tmp, TEMP_HOST, process.pid);
      const running = folderOf(tmp, TEMP_HOST, livePid());
      const runningOld = path.join(running, 'old-job-folder');
      mkdirSync(runningOld);
      utimesSync(runningOld, longAgo, longAgo);
      const otherHostSilent = folderOf(tmp, 'another-machine', 17);
      utimesSync(otherHostSilent, minutesAgo(11), minutesAgo(11));
      const otherHostAlive = folderOf(tmp, 'another-machine', 18);
      utimesSync(otherHostAlive, minutesAgo(2), minutesAgo(2));
      const loose = path.join(tmp, 'upload-from-an-older-version');
      writeFileSync(loose, 'x');
      utimesSync(loose, longAgo, longAgo);

      expect(await storage.sweepTemp(6 * 60 * 60 * 1000)).toBe(6);
      expect(existsSync(fresh)).toBe(true);
      for (const gone of [stale, crashed, earlierLife, runningOld, otherHostSilent, loose]) expect(existsSync(gone), gone).toBe(false);
      expect(filesUnder(running)).toEqual(['upload-in-flight']);
      expect(filesUnder(otherHostAlive)).toEqual(['upload-in-flight']);

      // A second storage in the same process (tests build several) is not taken for an earlier life.
      const sibling = createStorage(dataDir);
      await sibling.startTemp();
      expect(existsSync(fresh)).toBe(true);
      await sibling.removeOwnTemp();
      expect(existsSync(sibling.tempFolder)).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps a running process’s folder touched, so no other machine takes it for a dead one', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'familystar-temp-'));
    try {
      const storage = createStorage(dataDir, { heartbeatMs: 50 });
      await storage.startTemp();
      utimesSync(storage.tempFolder, minutesAgo(11), minutesAgo(11));
      await until(() => statSync(storage.tempFolder).mtimeMs, (mtime) => mtime > Date.now() - 5_000, 5_000, 50);
      await storage.removeOwnTemp();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
