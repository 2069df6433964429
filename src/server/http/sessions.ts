// Server-side sessions: a signed, httpOnly cookie holding a random id; the `sessions` table keeps the
// id's SHA-256, the user and the expiry. Reading the signed-in user, the hot path of every API call, is
// one prepared query (session joined with user), kept in this process until the database says the user
// or the session changed (session-cache.ts, decision 018).
//
// Why not @fastify/session: its store interface costs two queries per request here (the session, then
// the user) and keeps a blob we do not need; this does the one thing we use it for in ~80 lines.
import { hash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, getTableColumns, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { type UserRow, sessions, users } from '../db/schema';
import { createSessionCache } from './session-cache';

export const SESSION_COOKIE = 'familystar.sid';
export const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionCookieOptions {
  secure: boolean | 'auto';
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, loaded at most once per request. */
    sessionUser?: UserRow | null;
  }
}

const hashId = (id: string) => hash('sha256', id, 'base64url');

export function createSessions(db: Db, cookie: SessionCookieOptions, log?: FastifyBaseLogger) {
  const cache = createSessionCache(db, { log });
  const userBySession = db
    .select({ user: getTableColumns(users), expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, sql.placeholder('idHash')), gt(sessions.expiresAt, sql`now()`)))
    .limit(1)
    .prepare('session_user');

  function cookieOptions(request: FastifyRequest) {
    const secure = cookie.secure === 'auto' ? request.protocol === 'https' : cookie.secure;
    return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, signed: true };
  }

  /** The session id from a correctly signed cookie value, or undefined. */
  function sessionIdOf(request: FastifyRequest, raw = request.cookies[SESSION_COOKIE]): string | undefined {
    if (!raw) return undefined;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid && unsigned.value ? unsigned.value : undefined;
  }

  /**
   * The user of the session cookie `raw` (signed, as sent). The cache is keyed by its hash: only a value
   * that passed the signature check and the database is ever stored, so a hit needs neither again.
   */
  async function userOfCookie(request: FastifyRequest, raw: string): Promise<UserRow | null> {
    const key = hashId(raw);
    const cached = await cache.lookup(key);
    if (cached) return cached;
    const id = sessionIdOf(request, raw);
    if (!id) return null;
    const token = cache.beforeRead();
    const [row] = await userBySession.execute({ idHash: hashId(id) });
    if (!row) return null;
    cache.store(key, row.user, row.expiresAt, token);
    return row.user;
  }

  return {
    /** The session cookie's options (path, httpOnly, SameSite, Secure, signed); other auth cookies follow them. */
    cookieOptions,

    async currentUser(request: FastifyRequest): Promise<UserRow | null> {
      if (request.sessionUser !== undefined) return request.sessionUser;
      const raw = request.cookies[SESSION_COOKIE];
      request.sessionUser = raw ? await userOfCookie(request, raw) : null;
      return request.sessionUser;
    },

    /** Signs the user in with a brand-new session id; a session the browser had before is ended. */
    async start(request: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
      const previous = sessionIdOf(request);
      if (previous) await db.delete(sessions).where(eq(sessions.idHash, hashId(previous)));
      const id = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + SESSION_MAX_AGE_MS);
      await db.insert(sessions).values({ idHash: hashId(id), userId, expiresAt });
      reply.setCookie(SESSION_COOKIE, id, { ...cookieOptions(request), expires: expiresAt });
      request.sessionUser = undefined;
    },

    async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const id = sessionIdOf(request);
      if (id) await db.delete(sessions).where(eq(sessions.idHash, hashId(id)));
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      request.sessionUser = null;
    },

    /** Lookups answered from the cache and from the database since start (tests, benches). */
    cacheStats: () => cache.stats(),
    /** Starts hearing the database's changes; until then every lookup reads the database. */
    startCache: () => cache.start(),
    closeCache: () => cache.close(),

    /** Deletes expired sessions; main.ts runs it now and then. */
    async prune(): Promise<void> {
      await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
