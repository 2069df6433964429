// The signed-in user of a session, kept in this process between requests (decision 018), and what keeps
// it true: the database itself announces every change to `users` and `sessions` (triggers calling
// pg_notify, so a write from any code, process or psql counts), and this process listens.
//
// - Embedded (PGlite, one process): a notification reaches its listeners while the writing query's
//   result is read, before the writer's `await` returns, so nothing can be served stale.
// - PostgreSQL (many processes): each process listens on a connection of its own. A cached answer is
//   served only after a round trip on that connection that started after the request came: the server
//   delivers every notification committed before that round trip ahead of its answer, so any change
//   committed before the request was sent has been applied here first. Concurrent requests share one
//   round trip (an empty query, ~20 µs). While that connection is down nothing is cached or served from
//   the cache; everything cached before is dropped.
import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Db } from '../db/open';
import type { UserRow } from '../db/schema';

/** The notification channel; the payload is a user id, or '*' for everyone. */
export const AUTH_CHANNEL = 'familystar_auth';
/** A safety net only: every change is announced, so an entry is normally dropped long before. */
export const SESSION_CACHE_TTL_MS = 60_000;
export const SESSION_CACHE_MAX_ENTRIES = 10_000;
/** A round trip on the listening connection that takes longer than this counts as the connection lost. */
const ROUND_TRIP_TIMEOUT_MS = 2_000;
/** A process's own test notification must arrive within this when it starts listening (payload `probe:…`). */
const PROBE_TIMEOUT_MS = 2_000;
const RECONNECT_DELAYS_MS = [250, 1_000, 5_000];

/**
 * Rows of `users` updated or deleted, and sessions updated or deleted, notify their user id (TRUNCATE:
 * everyone). An expired session deleted (the hourly prune) tells no one: no cache serves one past its
 * expiry, and the minute covers clocks that differ. `create or replace` keeps this idempotent.
 */
const TRIGGERS_SQL = `
create or replace function familystar_auth_changed() returns trigger language plpgsql as $$
begin
  if tg_level = 'STATEMENT' then
    perform pg_notify('${AUTH_CHANNEL}', '*');
  elsif tg_table_name = 'users' then
    perform pg_notify('${AUTH_CHANNEL}', old.id::text);
  elsif tg_op = 'UPDATE' or old.expires_at > now() - interval '1 minute' then
    perform pg_notify('${AUTH_CHANNEL}', old.user_id::text);
  end if;
  return null;
end $$;
create or replace trigger familystar_auth_users after update or delete on users for each row execute function familystar_auth_changed();
create or replace trigger familystar_auth_users_truncate after truncate on users for each statement execute function familystar_auth_changed();
create or replace trigger familystar_auth_sessions after update or delete on sessions for each row execute function familystar_auth_changed();
create or replace trigger familystar_auth_sessions_truncate after truncate on sessions for each statement execute function familystar_auth_changed();
`;

interface Entry {
  user: UserRow;
  /** The session's expiry (ms): never served after it, whatever the TTL says. */
  expiresAt: number;
  storedAt: number;
}

export interface SessionCacheStats {
  hits: number;
  misses: number;
  /** True while changes are heard: entries are kept and served only then. */
  live: boolean;
}

export interface SessionCache {
  /**
   * The cached user of the session keyed `key`, once every change committed before this call has been
   * applied; undefined when not cached (or no longer): the caller reads the database, then calls store.
   */
  lookup(key: string): Promise<UserRow | undefined>;
  /** A token to hand to store: a read that started before a change must not be cached after it. */
  beforeRead(): number;
  store(key: string, user: UserRow, expiresAt: Date, token: number): void;
  stats(): SessionCacheStats;
  /** Starts listening (installing the triggers if needed); resolves once live, or once the first try failed. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createSessionCache(db: Db, options: { log?: FastifyBaseLogger; ttlMs?: number; maxEntries?: number } = {}): SessionCache {
  const { log, ttlMs = SESSION_CACHE_TTL_MS, maxEntries = SESSION_CACHE_MAX_ENTRIES } = options;
  const entries = new Map<string, Entry>();
  const keysByUser = new Map<number, Set<string>>();
  /** Bumped by every change heard and every loss or gain of hearing: a read begun before is not stored. */
  let epoch = 0;
  let hits = 0;
  let misses = 0;

  function drop(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    const keys = keysByUser.get(entry.user.id);
    keys?.delete(key);
    if (keys?.size === 0) keysByUser.delete(entry.user.id);
  }

  function forget(payload: string) {
    if (payload.startsWith('probe:')) return;
    epoch++;
    if (payload === '*') {
      entries.clear();
      keysByUser.clear();
      return;
    }
    for (const key of keysByUser.get(Number(payload)) ?? []) drop(key);
  }

  const changes = listenForChanges(db, forget, log);

  function fresh(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    const now = Date.now();
    if (now >= entry.expiresAt || now - entry.storedAt >= ttlMs) {
      drop(key);
      return undefined;
    }
    return entry;
  }

  return {
    async lookup(key) {
      if (!changes.live() || !fresh(key)) {
        misses++;
        return undefined;
      }
      // Looked up again after the round trip: a change heard meanwhile has dropped it.
      const entry = (await changes.caughtUp()) ? fresh(key) : undefined;
      if (entry) hits++;
      else misses++;
      return entry?.user;
    },

    beforeRead: () => epoch,

    store(key, user, expiresAt, token) {
      if (token !== epoch || !changes.live()) return;
      drop(key);
      // Oldest first out: with a one-minute TTL, insertion order is close enough to least recently used.
      if (entries.size >= maxEntries) drop(entries.keys().next().value!);
      // Frozen: the row is shared by every request of the session, none may change it for the others.
      entries.set(key, { user: Object.freeze(user), expiresAt: expiresAt.getTime(), storedAt: Date.now() });
      let keys = keysByUser.get(user.id);
      if (!keys) keysByUser.set(user.id, (keys = new Set()));
      keys.add(key);
    },

    stats: () => ({ hits, misses, live: changes.live() }),
    start: () => changes.start(),
    close: () => changes.close(),
  };
}

interface ChangeListener {
  live(): boolean;
  /** True once every change committed before the call has been heard; false if that cannot be known now. */
  caughtUp(): Promise<boolean>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The triggers, unless they are there already as written here (no DDL, no table lock, on a normal start). */
async function installTriggers(run: (sql: string) => Promise<unknown>, select: (sql: string) => Promise<{ rows: unknown[] }>): Promise<void> {
  const { rows } = await select(
    `select count(*)::int as n from pg_trigger t join pg_proc p on p.oid = t.tgfoid
     where p.proname = 'familystar_auth_changed' and not t.tgisinternal and t.tgenabled <> 'D'`,
  );
  const [source] = (await select(`select prosrc from pg_proc where proname = 'familystar_auth_changed'`)).rows as { prosrc: string }[];
  const wanted = /\$\$([\s\S]*)\$\$/.exec(TRIGGERS_SQL)![1];
  if ((rows[0] as { n: number }).n === 4 && source?.prosrc === wanted) return;
  // Web processes starting together: one installs, the others wait and replace it with the same.
  await run(`begin; select pg_advisory_xact_lock(7243019); ${TRIGGERS_SQL} commit;`);
}

/** How this process hears the database's announcements, for the kind of database `db` is. */
function listenForChanges(db: Db, forget: (payload: string) => void, log: FastifyBaseLogger | undefined): ChangeListener {
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof PGlite) return listenOnPglite(client, forget, log);
  if (client instanceof pg.Pool) return listenOnPostgres(client, forget, log);
  log?.warn('session cache off: unknown database client');
  return { live: () => false, caughtUp: async () => false, start: async () => {}, close: async () => {} };
}

function listenOnPglite(pglite: PGlite, forget: (payload: string) => void, log: FastifyBaseLogger | undefined): ChangeListener {
  let live = false;
  let unlisten: (() => Promise<void>) | undefined;
  return {
    live: () => live,
    // Notifications are delivered before the writing query returns: nothing can be outstanding.
    caughtUp: async () => true,
    async start() {
      try {
        await installTriggers((sql) => pglite.exec(sql), (sql) => pglite.query(sql));
        unlisten = await pglite.listen(AUTH_CHANNEL, forget);
        live = true;
      } catch (error) {
        log?.warn({ err: error }, 'session cache off: cannot listen for session changes');
      }
    },
    async close() {
      live = false;
      forget('*');
      await unlisten?.().catch(() => {});
    },
  };
}

function listenOnPostgres(pool: pg.Pool, forget: (payload: string) => void, log: FastifyBaseLogger | undefined): ChangeListener {
  let connection: pg.Client | undefined;
  let live = false;
  let closed = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  // One round trip at a time; whoever asks while one is out waits for the next, which starts after them.
  let roundTripOut = false;
  let waiting: ((caughtUp: boolean) => void)[] = [];

  function lost(client: pg.Client, error: unknown) {
    if (connection !== client) return;
    connection = undefined;
    // Whatever was cached may have changed unheard since.
    if (live) forget('*');
    live = false;
    client.removeAllListeners('notification');
    client.end().catch(() => {});
    if (closed) return;
    // Said once per outage, not at every try.
    if (failures === 0) log?.warn({ err: error }, 'session cache off until the listening connection is back');
    const delay = RECONNECT_DELAYS_MS[Math.min(failures++, RECONNECT_DELAYS_MS.length - 1)];
    retry = setTimeout(() => void connect(), delay).unref();
  }

  async function connect(): Promise<void> {
    const client = new pg.Client({ ...pool.options, application_name: 'familystar-session-listener', connectionTimeoutMillis: 5_000 });
    connection = client;
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client, new Error('connection ended')));
    const probe = `probe:${randomUUID()}`;
    let heard = () => {};
    const probeHeard = new Promise<void>((resolve) => (heard = resolve));
    client.on('notification', ({ channel, payload = '*' }) => {
      if (channel !== AUTH_CHANNEL) return;
      if (payload === probe) heard();
      forget(payload);
    });
    try {
      await client.connect();
      await installTriggers((sql) => client.query(sql), (sql) => client.query(sql));
      await client.query(`listen ${AUTH_CHANNEL}`);
      // Sent from the pool, heard here: a pooler in transaction mode would accept LISTEN and deliver nothing.
      await pool.query('select pg_notify($1, $2)', [AUTH_CHANNEL, probe]);
      let timer: NodeJS.Timeout | undefined;
      const silent = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('a notification sent through the pool did not arrive on the listening connection')), PROBE_TIMEOUT_MS);
      });
      await Promise.race([probeHeard, silent]).finally(() => clearTimeout(timer));
      if (connection !== client) return;
      failures = 0;
      forget('*');
      live = true;
    } catch (error) {
      lost(client, error);
    }
  }

  function roundTrip() {
    const client = connection;
    const riders = waiting;
    waiting = [];
    if (!client || !live) {
      for (const ride of riders) ride(false);
      return;
    }
    roundTripOut = true;
    let finished = false;
    function done(caughtUp: boolean) {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      roundTripOut = false;
      for (const ride of riders) ride(caughtUp);
      if (waiting.length > 0) roundTrip();
    }
    const timer = setTimeout(() => {
      lost(client, new Error('no answer on the listening connection'));
      done(false);
    }, ROUND_TRIP_TIMEOUT_MS);
    // An empty query: the server sends the notifications it holds for us before its answer.
    client.query('').then(
      () => done(live && connection === client),
      () => done(false),
    );
  }

  return {
    live: () => live,
    caughtUp() {
      return new Promise((resolve) => {
        waiting.push(resolve);
        if (!roundTripOut) roundTrip();
      });
    },
    start: () => connect(),
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = connection;
      if (client) lost(client, undefined);
    },
  };
}
