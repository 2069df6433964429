// The job queue's errors are logged by the app's logger (decision 015, Text input): `npm start` gave
// pg-boss `console`, which printed a database error whole (a failed query's parameters and PostgreSQL's
// `detail` with it) instead of through the err serializer of http/log-options.ts. The real main.ts on
// PostgreSQL, whose queue is then broken from outside (its maintenance fails every second).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../e2e/harness';
import { testDatabases } from './testing/databases';
import { until } from './testing/wait';

const ROOT = path.resolve(import.meta.dirname, '../..');
const postgres = (await testDatabases()).find((database) => database.name === 'postgres');

/** The keys safeError keeps (log-options.ts): anything else in a logged error came from elsewhere. */
const SAFE_KEYS = ['type', 'message', 'stack', 'query', 'cause', 'code', 'statusCode', 'severity', 'constraint', 'table', 'column', 'schema', 'routine', 'errno', 'syscall'];

let child: ChildProcess | undefined;
afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe.runIf(postgres)('the job queue’s errors in the log of npm start', () => {
  it('are JSON lines of the app’s logger, the error through its serializer', async () => {
    const database = await postgres!.open();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'familystar-queue-log-'));
    try {
      const port = await freePort();
      child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: database.url!,
          DEMO_TEMPLATES: 'off',
          JOB_CONCURRENCY: '1',
          PIPELINE_THREADS: '1',
          LOG_LEVEL: 'info',
          // Maintenance every second (a third of the expiry).
          JOB_EXPIRE_SECONDS: '3',
        },
      });
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await until(() => fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok).catch(() => false), Boolean, 90_000);

      // pg-boss's maintenance starts by writing to this table: from now on each run fails.
      await database.db.execute(sql`alter table pgboss.version rename to version_gone`);
      const queueErrors = () =>
        output
          .split('\n')
          .filter((line) => line.includes('job queue error'))
          .map((line) => {
            try {
              return JSON.parse(line) as { level: number; msg: string; err?: Record<string, unknown> };
            } catch {
              return { level: 0, msg: `not a JSON line: ${line}` };
            }
          });
      const [logged] = await until(queueErrors, (lines) => lines.length > 0, 30_000).catch(() => {
        throw new Error(`no queue error logged: ${output.slice(-3000)}`);
      });
      expect(logged!.msg, output.slice(-3000)).toBe('job queue error');
      expect(logged!.level).toBe(50);
      expect(logged!.err).toMatchObject({ type: 'DatabaseError', code: '42P01', message: expect.stringContaining('version') });
      expect(Object.keys(logged!.err!).filter((key) => !SAFE_KEYS.includes(key))).toEqual([]);
    } finally {
      child?.kill('SIGKILL');
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
