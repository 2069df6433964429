// Permissions as one helper each: they return the signed-in user or throw 401/403.
import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/open';
import { type UserRow, users } from '../db/schema';
import { forbidden, unauthorized } from './errors';

declare module 'fastify' {
  interface Session {
    userId?: number;
  }
  interface FastifyRequest {
    /** The signed-in user, loaded once per request by requireUser. */
    currentUser?: UserRow | null;
  }
}

export async function loadSessionUser(db: Db, request: FastifyRequest): Promise<UserRow | null> {
  if (request.currentUser !== undefined) return request.currentUser;
  const userId = request.session?.userId;
  let user: UserRow | null = null;
  if (typeof userId === 'number') {
    [user = null] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  }
  request.currentUser = user;
  return user;
}

export async function requireUser(db: Db, request: FastifyRequest): Promise<UserRow> {
  const user = await loadSessionUser(db, request);
  if (!user) throw unauthorized();
  return user;
}

export async function requireAdmin(db: Db, request: FastifyRequest): Promise<UserRow> {
  const user = await requireUser(db, request);
  if (user.role !== 'admin') throw forbidden();
  return user;
}

/** The row must belong to the user (admins pass too when `allowAdmin`). */
export function requireOwner(user: UserRow, row: { userId: number }, options: { allowAdmin?: boolean } = {}): void {
  if (row.userId === user.id) return;
  if (options.allowAdmin && user.role === 'admin') return;
  throw forbidden();
}
