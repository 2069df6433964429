// The databases an API suite runs on: always the embedded PGlite, and a real PostgreSQL server when one
// is reachable (TEST_DATABASE_URL, or a local server on 127.0.0.1:5432). Each run gets a fresh database
// that is dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openPglite, openPostgres } from '../db/open';

export interface TestDatabase {
  name: 'pglite' | 'postgres';
  open(): Promise<Database>;
}

const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

async function serverIsReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A fresh database on the server, dropped when closed. */
async function openFreshPostgres(adminUrl: string): Promise<Database> {
  const name = `familystar_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString());
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

export async function testDatabases(): Promise<TestDatabase[]> {
  const databases: TestDatabase[] = [{ name: 'pglite', open: () => openPglite(undefined) }];
  const serverUrl = process.env.TEST_DATABASE_URL || DEFAULT_SERVER_URL;
  if (await serverIsReachable(serverUrl)) {
    databases.push({ name: 'postgres', open: () => openFreshPostgres(serverUrl) });
  } else if (process.env.TEST_DATABASE_URL) {
    throw new Error(`TEST_DATABASE_URL is set but ${serverUrl} cannot be reached`);
  }
  return databases;
}
