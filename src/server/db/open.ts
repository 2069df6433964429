// Opens the database: embedded PGlite under DATA_DIR/db by default, or a PostgreSQL server from DATABASE_URL.
// Both get the same drizzle-kit migrations at start.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { processIsAlive } from '../process-alive';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction's handle, for helpers that run inside one. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The PGlite instance in embedded mode (the job queue talks to it directly). */
  pglite?: PGlite;
  /** The pg pool in server mode. */
  pool?: pg.Pool;
  /** The server's address in server mode (tests hand it to worker processes). */
  url?: string;
  close(): Promise<void>;
}

/** The migrations folder, found from this file both in the source tree and in the bundled server. */
export function migrationsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const candidate of [path.join(here, 'migrations'), path.resolve(here, '../../src/server/db/migrations')]) {
    try {
      readFileSync(path.join(candidate, 'meta/_journal.json'));
      return candidate;
    } catch {
      // try the next place
    }
  }
  throw new Error('Cannot find the database migrations folder');
}

/**
 * PGlite takes no lock of its own and two processes writing one folder corrupt it, so take a lock
 * file holding our pid; a lock left by a dead process is taken over.
 */
function lockDataFolder(lockFile: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lockFile, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processIsAlive(holder)) {
        throw new Error(
          `The embedded database in ${path.dirname(lockFile)} is in use by process ${holder}. ` +
            'Stop it, or set DATABASE_URL to share a PostgreSQL server between processes.',
          { cause: error },
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock ${lockFile}`);
}

/**
 * Creating a new PGlite database (its initdb) leaves a ~800 MB high-water mark in the process that
 * did it, where opening an existing one costs ~350 MB. So a new database is created in a worker
 * thread, whose memory goes when it exits, and then opened here like any existing one.
 */
async function createPgliteDatabase(dir: string): Promise<void> {
  const pgliteUrl = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     import(workerData.pgliteUrl).then(async ({ PGlite }) => {
       const db = new PGlite(workerData.dir);
       await db.waitReady;
       await db.close();
     });`,
    { eval: true, workerData: { pgliteUrl, dir } },
  );
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`creating the database failed (${code})`))));
  });
}

/** Embedded database. `dir` undefined opens an in-memory one (tests). */
export async function openPglite(dir: string | undefined): Promise<Database> {
  let unlock = () => {};
  if (dir) {
    mkdirSync(dir, { recursive: true });
    unlock = lockDataFolder(`${dir}.lock`);
  }
  try {
    if (dir && !existsSync(path.join(dir, 'PG_VERSION'))) await createPgliteDatabase(dir);
    const pglite = new PGlite({ dataDir: dir });
    await pglite.waitReady;
    const db = drizzlePglite(pglite, { schema }) as unknown as Db;
    await migratePglite(drizzlePglite(pglite), { migrationsFolder: migrationsFolder() });
    return {
      db,
      kind: 'pglite',
      pglite,
      async close() {
        await pglite.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  // An idle connection the server ends (a restart, a failover, an administrator's command) is an 'error'
  // on the pool; unheard, it would stop the process. The pool opens a new one for the next query.
  pool.on('error', (error) => process.emitWarning(`A PostgreSQL connection was closed by the server: ${error.message}`));
  try {
    await migratePg(drizzlePg(pool), { migrationsFolder: migrationsFolder() });
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    db: drizzlePg(pool, { schema }) as unknown as Db,
    kind: 'postgres',
    pool,
    url,
    close: () => pool.end(),
  };
}

export function openDatabase(config: { databaseUrl: string | undefined; dataDir: string }): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(path.join(config.dataDir, 'db'));
}
