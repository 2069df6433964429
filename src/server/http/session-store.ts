// The @fastify/session store on the `sessions` table: same code on PGlite and PostgreSQL, survives restarts.
import type { SessionStore } from '@fastify/session';
import { eq, lt } from 'drizzle-orm';
import type { Db } from '../db/open';
import { sessions } from '../db/schema';

type Callback = (error?: unknown) => void;

function expiryOf(session: { cookie?: { expires?: Date | string | null; originalMaxAge?: number | null } }): Date {
  const expires = session.cookie?.expires;
  return expires ? new Date(expires) : new Date(Date.now() + 24 * 60 * 60 * 1000);
}

export function createSessionStore(db: Db): SessionStore & { prune(): Promise<void> } {
  return {
    set(sid, session, callback: Callback) {
      const data = JSON.parse(JSON.stringify(session)) as Record<string, unknown>;
      const userId = typeof data.userId === 'number' ? data.userId : null;
      const expiresAt = expiryOf(session as never);
      db.insert(sessions)
        .values({ sid, userId, data, expiresAt })
        .onConflictDoUpdate({ target: sessions.sid, set: { userId, data, expiresAt } })
        .then(() => callback(), callback);
    },
    get(sid, callback) {
      db.select({ data: sessions.data, expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(eq(sessions.sid, sid))
        .then(([row]) => {
          if (!row || row.expiresAt.getTime() <= Date.now()) return callback(null, null);
          callback(null, row.data as never);
        }, callback);
    },
    destroy(sid, callback: Callback) {
      db.delete(sessions)
        .where(eq(sessions.sid, sid))
        .then(() => callback(), callback);
    },
    /** Removes expired sessions; run now and then. */
    async prune() {
      await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
    },
  };
}
