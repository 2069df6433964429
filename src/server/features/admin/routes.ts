// The admin dashboard's user management and analytics (spec 02 §2, §7; decisions page). Admin only:
// 401 signed out, 403 for a user.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { asc, eq } from 'drizzle-orm';
import { ADMIN_MESSAGES, planChangeSchema, roleChangeSchema, subscriptionChangeSchema } from '../../../shared/admin-rules';
import type { AdminAnalytics } from '../../../shared/api-types';
import { type UserRow, users } from '../../db/schema';
import { conflict, notFound, parseId, parseInput } from '../../http/errors';
import { requireAdmin } from '../../http/guards';
import type { RouteDeps } from '../../http/route-deps';
import { toCurrentUser } from '../users/serialize';
import { loadAnalytics } from './analytics';

export async function adminRoutes(app: FastifyInstance, { db, sessions, queue }: RouteDeps) {
  const targetId = (request: FastifyRequest) => parseId((request.params as { id: string }).id);

  async function updateUser(id: number, changes: Partial<Pick<UserRow, 'subscriptionStatus' | 'plan'>>) {
    const [updated] = await db.update(users).set(changes).where(eq(users.id, id)).returning();
    if (!updated) throw notFound(ADMIN_MESSAGES.userNotFound);
    return toCurrentUser(updated);
  }

  app.get('/admin/users', async (request) => {
    await requireAdmin(sessions, request);
    const rows = await db.select().from(users).orderBy(asc(users.createdAt), asc(users.id));
    return rows.map(toCurrentUser);
  });

  app.patch('/admin/users/:id/role', async (request) => {
    await requireAdmin(sessions, request);
    const id = targetId(request);
    const { role } = parseInput(roleChangeSchema, request.body);
    const updated = await db.transaction(async (tx) => {
      // Lock every admin row: two admins demoting each other at once cannot both succeed.
      const admins = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).for('update');
      const isAdmin = admins.some((admin) => admin.id === id);
      if (role === 'user' && isAdmin && admins.length === 1) throw conflict(ADMIN_MESSAGES.lastAdmin);
      const [row] = await tx.update(users).set({ role }).where(eq(users.id, id)).returning();
      return row;
    });
    if (!updated) throw notFound(ADMIN_MESSAGES.userNotFound);
    return toCurrentUser(updated);
  });

  app.patch('/admin/users/:id/subscription', async (request) => {
    await requireAdmin(sessions, request);
    const id = targetId(request);
    const { subscriptionStatus } = parseInput(subscriptionChangeSchema, request.body);
    return updateUser(id, { subscriptionStatus });
  });

  app.patch('/admin/users/:id/plan', async (request) => {
    await requireAdmin(sessions, request);
    const id = targetId(request);
    const { plan } = parseInput(planChangeSchema, request.body);
    return updateUser(id, { plan });
  });

  app.get('/admin/analytics', async (request) => {
    await requireAdmin(sessions, request);
    const [figures, jobs] = await Promise.all([loadAnalytics(db), queue.stats()]);
    return { ...figures, jobs } satisfies AdminAnalytics;
  });
}
