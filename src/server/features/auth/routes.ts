// POST /api/register, /api/login, /api/logout; GET /api/me (spec 01 §7).
import type { FastifyInstance } from 'fastify';
import { count, eq, sql } from 'drizzle-orm';
import { MESSAGES, type RegisterRequest, loginRequestSchema, registerRequestSchema } from '../../../shared/validation';
import { users } from '../../db/schema';
import { parseInput, unauthorized } from '../../http/errors';
import { requireUser } from '../../http/guards';
import type { RouteDeps } from '../../http/route-deps';
import { toCurrentUser } from '../users/serialize';
import { rethrowUserConflict } from '../users/unique';
import { knownDeviceFor, rememberDevice } from './known-device';
import { LIMITS, THROTTLE_MESSAGES, releaseAttempt, reserveAttempt, reserveSignIn } from './throttle';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';
import { clearSignedInHint, setSignedInHint, syncSignedInHint } from './signed-in-hint';

export async function authRoutes(app: FastifyInstance, { db, sessions }: RouteDeps) {
  app.post('/register', { config: { public: true } }, async (request, reply) => {
    const input = parseInput(registerRequestSchema, request.body);
    const registrations = [LIMITS.registrationsPerAddress(request.ip)];
    // Reserved before the password is hashed; given back if no account is made (a name already taken).
    await reserveAttempt(db, registrations, THROTTLE_MESSAGES.register);
    const user = await createAccount(input).catch(async (error: unknown) => {
      await releaseAttempt(db, registrations);
      throw error;
    });
    await sessions.start(request, reply, user.id);
    rememberDevice(sessions, request, reply, user.id);
    setSignedInHint(sessions, request, reply);
    return reply.status(201).send(toCurrentUser(user));
  });

  /** The new user's row; the very first account is the admin. */
  async function createAccount(input: RegisterRequest) {
    const passwordHash = await hashPassword(input.password);
    return db
      .transaction(async (tx) => {
        // Serialise registrations so exactly one first account becomes admin.
        await tx.execute(sql`select pg_advisory_xact_lock(7243001)`);
        const [{ total } = { total: 0 }] = await tx.select({ total: count() }).from(users);
        const [created] = await tx
          .insert(users)
          .values({
            username: input.username,
            email: input.email,
            displayName: input.displayName,
            password: passwordHash,
            role: total === 0 ? 'admin' : 'user',
          })
          .returning();
        return created!;
      })
      .catch(rethrowUserConflict);
  }

  app.post('/login', { config: { public: true } }, async (request, reply) => {
    const input = parseInput(loginRequestSchema, request.body);
    const [user] = await db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.username})`, input.username.toLowerCase()))
      .limit(1);
    // Reserved as a failure before the password is checked; a sign-in that works gives it back.
    const attempt = await reserveSignIn(db, { username: input.username, address: request.ip, knownDevice: knownDeviceFor(request, user?.id) });
    const valid = await verifyPassword(input.password, user?.password ?? (await dummyPasswordHash()));
    if (!user || !valid) throw unauthorized(MESSAGES.invalidCredentials);
    await attempt.succeeded();
    // A new session id at sign-in: a session id planted before sign-in is worth nothing after it.
    await sessions.start(request, reply, user.id);
    rememberDevice(sessions, request, reply, user.id);
    setSignedInHint(sessions, request, reply);
    return toCurrentUser(user);
  });

  app.post('/logout', { config: { public: true } }, async (request, reply) => {
    await sessions.end(request, reply);
    clearSignedInHint(reply);
    return reply.status(204).send();
  });

  app.get('/me', async (request, reply) => {
    const user = await sessions.currentUser(request);
    syncSignedInHint(sessions, request, reply, user !== null);
    return toCurrentUser(await requireUser(sessions, request));
  });
}
