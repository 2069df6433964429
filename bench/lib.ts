// Shared pieces of the benchmarks: start processes, run autocannon, read memory.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { startServer } from '../e2e/harness';

export { startServer };

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  durationS: number;
}

export async function load(url: string, options: { connections?: number; durationS?: number; headers?: Record<string, string> } = {}): Promise<LoadResult> {
  const durationS = options.durationS ?? Number(process.env.BENCH_DURATION_S ?? 10);
  // A short warm-up so the JIT and the database caches are in the figures' steady state.
  await autocannon({ url, connections: options.connections ?? 50, duration: 2, headers: options.headers });
  const result = await autocannon({ url, connections: options.connections ?? 50, duration: durationS, headers: options.headers });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    durationS,
  };
}

/** CPU time a process has used so far, all its threads, user and system, in ms (Linux, clock ticks of 10 ms). */
export function cpuMsOf(pid: number): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident memory of a process in MB (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Starts a TypeScript file with tsx and waits for it to print "listening <port>". */
export async function startScript(file: string): Promise<{ port: number; child: ChildProcess; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
  });
  return { port, child, stop: () => child.kill('SIGTERM') };
}

/**
 * Registers an account on a running server and returns the Cookie header a browser would then send: the
 * session and the signed-in hint (decision 002; without the hint GET /api/me would set it on every answer).
 * The first account is the admin.
 */
export async function registerAndSignIn(baseUrl: string, username: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'a good long password', displayName: 'Bench Parent' }),
  });
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0]!)
    .join('; ');
}

const POSTGRES_SERVER_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh database on the PostgreSQL server, or undefined when none answers. */
export async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const admin = new pg.Client({ connectionString: POSTGRES_SERVER_URL, connectionTimeoutMillis: 1500 });
  try {
    await admin.connect();
  } catch {
    if (process.env.TEST_DATABASE_URL) throw new Error(`TEST_DATABASE_URL is set but ${POSTGRES_SERVER_URL} cannot be reached`);
    return undefined;
  }
  const name = `familystar_bench_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: POSTGRES_SERVER_URL });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}
