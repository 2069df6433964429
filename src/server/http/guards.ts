// Permissions as one helper each: they return the signed-in user or throw 401/403.
import type { FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema';
import { forbidden, unauthorized } from './errors';
import type { Sessions } from './sessions';

export async function requireUser(sessions: Sessions, request: FastifyRequest): Promise<UserRow> {
  const user = await sessions.currentUser(request);
  if (!user) throw unauthorized();
  return user;
}

export async function requireAdmin(sessions: Sessions, request: FastifyRequest): Promise<UserRow> {
  const user = await requireUser(sessions, request);
  if (user.role !== 'admin') throw forbidden();
  return user;
}

/** The row must belong to the user (admins pass too when `allowAdmin`). */
export function requireOwner(user: UserRow, row: { userId: number }, options: { allowAdmin?: boolean } = {}): void {
  if (row.userId === user.id) return;
  if (options.allowAdmin && user.role === 'admin') return;
  throw forbidden();
}
