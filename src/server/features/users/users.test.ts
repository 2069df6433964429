import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../shared/validation';
import { users } from '../../db/schema';
import { testDatabases } from '../../testing/databases';
import { type TestApp, type TestClient, createTestApp, json } from '../../testing/test-app';

const databases = await testDatabases();

describe.each(databases)('users API on $name', (testDatabase) => {
  let t: TestApp;
  let admin: TestClient;
  let adminAccount: Awaited<ReturnType<TestClient['register']>>;
  beforeAll(async () => {
    t = await createTestApp(testDatabase);
    admin = t.client();
    adminAccount = await admin.register(); // first account: admin
  });
  afterAll(() => t?.close());

  const rowOf = async (id: number) => (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!;

  describe('GET /api/users/:id', () => {
    it('shows a user their own profile without the password', async () => {
      const client = t.client();
      const { user, username, email, displayName } = await client.register();
      const response = await client.get(`/api/users/${user.id}`);
      expect(response.statusCode).toBe(200);
      expect(json(response)).toMatchObject({ id: user.id, username, email, displayName, role: 'user' });
      expect(response.body).not.toContain('password');
      expect(response.body).not.toContain('scrypt');
    });

    it("refuses another user's profile with 403, whether or not it exists", async () => {
      const client = t.client();
      await client.register();
      expect((await client.get(`/api/users/${adminAccount.user.id}`)).statusCode).toBe(403);
      expect((await client.get('/api/users/999999')).statusCode).toBe(403);
    });

    it('lets an admin read any user, and 404 for one that does not exist', async () => {
      const other = await t.client().register();
      const response = await admin.get(`/api/users/${other.user.id}`);
      expect(response.statusCode).toBe(200);
      expect(json(response).username).toBe(other.username);
      expect((await admin.get('/api/users/999999')).statusCode).toBe(404);
    });

    it('answers 401 when signed out and 400 for an id that is not a number', async () => {
      expect((await t.client().get(`/api/users/${adminAccount.user.id}`)).statusCode).toBe(401);
      for (const id of ['abc', '1.5', '-1', '0', '99999999999', '1e3']) {
        const response = await admin.get(`/api/users/${id}`);
        expect(response.statusCode, id).toBe(400);
        expect(json(response)).toEqual({ message: MESSAGES.invalidId });
      }
    });
  });

  describe('PATCH /api/users/:id', () => {
    it('updates the own profile, normalising the e-mail', async () => {
      const client = t.client();
      const { user } = await client.register();
      const response = await client.patch(`/api/users/${user.id}`, {
        username: `renamed_${user.id}`,
        email: `Renamed_${user.id}@Example.com`,
        displayName: '  Renamed Parent  ',
      });
      expect(response.statusCode).toBe(200);
      expect(json(response)).toMatchObject({
        username: `renamed_${user.id}`,
        email: `renamed_${user.id}@example.com`,
        displayName: 'Renamed Parent',
      });
      expect(json(await client.get('/api/me')).displayName).toBe('Renamed Parent');
    });

    it('ignores fields the profile does not own (role, plan, password, id)', async () => {
      const client = t.client();
      const { user } = await client.register();
      const before = await rowOf(user.id);
      const response = await client.patch(`/api/users/${user.id}`, {
        displayName: 'Still A User',
        role: 'admin',
        plan: 'family',
        password: 'newpassword123',
        id: 1,
      });
      expect(response.statusCode).toBe(200);
      const after = await rowOf(user.id);
      expect(after).toMatchObject({ role: 'user', plan: 'free', password: before.password, id: user.id });
      expect(after.displayName).toBe('Still A User');
    });

    const badInputs: [string, Record<string, unknown>, string][] = [
      ['short username', { username: 'ab' }, MESSAGES.usernameTooShort],
      ['10 KB username', { username: 'a'.repeat(10_240) }, MESSAGES.usernameTooLong],
      ['blank display name', { displayName: '  ' }, MESSAGES.fillAllFields],
      ['short display name', { displayName: 'A' }, MESSAGES.displayNameTooShort],
      ['malformed email', { email: 'nope@' }, MESSAGES.invalidEmail],
      ['numeric email', { email: 42 }, 'Email must be text'],
      ['no known field', { favouriteColour: 'green' }, 'Nothing to update'],
    ];
    it.each(badInputs)('rejects a %s with 400 and changes nothing', async (_label, body, message) => {
      const client = t.client();
      const { user } = await client.register();
      const before = await rowOf(user.id);
      const response = await client.patch(`/api/users/${user.id}`, body);
      expect(response.statusCode).toBe(400);
      expect(json(response)).toEqual({ message });
      expect(await rowOf(user.id)).toEqual(before);
    });

    it("refuses a username or e-mail someone else has with 409", async () => {
      const client = t.client();
      const { user } = await client.register();
      const taken = await client.patch(`/api/users/${user.id}`, { username: adminAccount.username.toUpperCase() });
      expect(taken.statusCode).toBe(409);
      expect(json(taken)).toEqual({ message: MESSAGES.usernameTaken });
      const takenEmail = await client.patch(`/api/users/${user.id}`, { email: adminAccount.email });
      expect(takenEmail.statusCode).toBe(409);
      expect(json(takenEmail)).toEqual({ message: MESSAGES.emailTaken });
    });

    it("refuses to change another user's profile and leaves it unchanged", async () => {
      const victim = await t.client().register();
      const before = await rowOf(victim.user.id);
      const attacker = t.client();
      await attacker.register();
      const response = await attacker.patch(`/api/users/${victim.user.id}`, { displayName: 'Hacked' });
      expect(response.statusCode).toBe(403);
      expect(await rowOf(victim.user.id)).toEqual(before);
      expect((await t.client().patch(`/api/users/${victim.user.id}`, { displayName: 'Hacked' })).statusCode).toBe(401);
    });

    it('lets an admin change another user', async () => {
      const other = await t.client().register();
      const response = await admin.patch(`/api/users/${other.user.id}`, { displayName: 'Fixed By Admin' });
      expect(response.statusCode).toBe(200);
      expect((await rowOf(other.user.id)).displayName).toBe('Fixed By Admin');
    });
  });
});
