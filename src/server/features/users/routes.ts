// GET and PATCH /api/users/:id: the user themself or an admin (spec 01 §7); GET /api/users/:id/usage:
// their plan's limits and what is used of them; DELETE /api/users/:id: the account itself with its
// password, or an admin (delete-account.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { count, eq } from 'drizzle-orm';
import type { PlanUsage } from '../../../shared/api-types';
import { planById } from '../../../shared/plans';
import { deleteAccountSchema } from '../../../shared/privacy';
import { profileUpdateSchema } from '../../../shared/validation';
import { people, users } from '../../db/schema';
import { badRequest, forbidden, notFound, parseId, parseInput } from '../../http/errors';
import { requireUser } from '../../http/guards';
import type { RouteDeps } from '../../http/route-deps';
import { monthlyVideoCount } from '../videos/service';
import { confirmPassword, deleteAccount } from './delete-account';
import { toCurrentUser } from './serialize';
import { rethrowUserConflict } from './unique';

const partialProfileSchema = profileUpdateSchema.partial();

export async function userRoutes(app: FastifyInstance, { db, sessions, storage, queue, payments }: RouteDeps) {
  /** The target user id, once the caller is known to be allowed to see it. */
  async function allowedUserId(request: FastifyRequest) {
    const caller = await requireUser(sessions, request);
    const id = parseId((request.params as { id: string }).id);
    // Another user's id is 403 whether or not it exists: ids are not probed through this route.
    if (id !== caller.id && caller.role !== 'admin') throw forbidden();
    return id;
  }

  app.get('/users/:id', async (request) => {
    const id = await allowedUserId(request);
    const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
    if (!user) throw notFound('User not found');
    return toCurrentUser(user);
  });

  /** The plan, people and this month's videos against its limits (admins are exempt: no limits). */
  app.get('/users/:id/usage', async (request): Promise<PlanUsage> => {
    const id = await allowedUserId(request);
    const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
    if (!user) throw notFound('User not found');
    const plan = planById(user.plan);
    const exempt = user.role === 'admin';
    const [[{ n: peopleCount } = { n: 0 }], videosThisMonth] = await Promise.all([
      db.select({ n: count() }).from(people).where(eq(people.userId, id)),
      monthlyVideoCount(db, id),
    ]);
    return {
      plan: plan.id,
      people: { used: peopleCount, limit: exempt ? null : plan.maxPeople },
      videosThisMonth: { used: videosThisMonth, limit: exempt ? null : plan.videosPerMonth },
    };
  });

  app.patch('/users/:id', async (request) => {
    const id = await allowedUserId(request);
    const changes = parseInput(partialProfileSchema, request.body);
    if (Object.keys(changes).length === 0) throw badRequest('Nothing to update');
    const [updated] = await db
      .update(users)
      .set(changes)
      .where(eq(users.id, id))
      .returning()
      .catch(rethrowUserConflict);
    if (!updated) throw notFound('User not found');
    return toCurrentUser(updated);
  });

  /** 204 once every row and file of the account is gone; deleting itself also ends this session. */
  app.delete('/users/:id', async (request, reply) => {
    const id = await allowedUserId(request);
    const caller = await requireUser(sessions, request);
    const password = parseInput(deleteAccountSchema, request.body)?.password;
    const itself = id === caller.id;
    if (itself) await confirmPassword(db, caller, password, request.ip);
    await deleteAccount({ db, storage, queue, payments, log: request.log }, caller, id);
    if (itself) await sessions.end(request, reply);
    return reply.status(204).send();
  });
}
