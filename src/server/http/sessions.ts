// Server-side sessions: a signed, httpOnly cookie holding a random id; the `sessions` table keeps the
// id's SHA-256, the user and the expiry. Reading the signed-in user is one prepared query (session
// joined with user), the hot path of every API call.
//
// Why not @fastify/session: its store interface costs two queries per request here (the session, then
// the user) and keeps a blob we do not need; this does the one thing we use it for in ~80 lines.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, getTableColumns, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/open';
import { type UserRow, sessions, users } from '../db/schema';

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

const hashId = (id: string) => createHash('sha256').update(id).digest('base64url');

export function createSessions(db: Db, cookie: SessionCookieOptions) {
  const userBySession = db
    .select(getTableColumns(users))
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, sql.placeholder('idHash')), gt(sessions.expiresAt, sql`now()`)))
    .limit(1)
    .prepare('session_user');

  function cookieOptions(request: FastifyRequest) {
    const secure = cookie.secure === 'auto' ? request.protocol === 'https' : cookie.secure;
    return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, signed: true };
  }

  /** The session id from a correctly signed cookie, or undefined. */
  function sessionIdOf(request: FastifyRequest): string | undefined {
    const raw = request.cookies[SESSION_COOKIE];
    if (!raw) return undefined;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid && unsigned.value ? unsigned.value : undefined;
  }

  return {
    /** The session cookie's options (path, httpOnly, SameSite, Secure, signed); other auth cookies follow them. */
    cookieOptions,

    async currentUser(request: FastifyRequest): Promise<UserRow | null> {
      if (request.sessionUser !== undefined) return request.sessionUser;
      const id = sessionIdOf(request);
      const [user] = id ? await userBySession.execute({ idHash: hashId(id) }) : [];
      request.sessionUser = (user as UserRow | undefined) ?? null;
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

    /** Deletes expired sessions; main.ts runs it now and then. */
    async prune(): Promise<void> {
      await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
