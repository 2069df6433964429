// The PostgreSQL pool outlives connections the server ends (a restart, a failover, an administrator's
// command): the process keeps running and the next query gets a new connection. Runs where a PostgreSQL
// server is reachable (see testing/databases.ts); PGlite has no server to end anything.
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../testing/databases';

const postgres = (await testDatabases()).find((database) => database.name === 'postgres');

describe.skipIf(!postgres)('PostgreSQL pool', () => {
  it('survives the server ending its idle connections', async () => {
    const database = await postgres!.open();
    try {
      await database.db.execute(sql`select 1`);
      // End every other connection to this database from outside, as a restart would.
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      const ended = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
      await admin.end();
      expect(ended.rowCount).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const result = (await database.db.execute(sql`select 2 as two`)) as unknown as { rows: { two: number }[] };
      expect(Number(result.rows[0]!.two)).toBe(2);
    } finally {
      await database.close();
    }
  });
});
