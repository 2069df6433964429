// Helpers the people, faces and voices suites share: signed-in users with a person.
import { eq } from 'drizzle-orm';
import { users } from '../db/schema';
import { type TestApp, type TestClient, json } from './test-app';

export interface Member {
  client: TestClient;
  userId: number;
  personId: number;
}

/** A new signed-in user (role user, on `plan`) with one person, whose consent is given unless `consent: false`. */
export async function memberWithPerson(t: TestApp, plan: 'free' | 'premium' | 'family' = 'free', options: { consent?: boolean } = {}): Promise<Member> {
  const client = t.client();
  const { user } = await client.register();
  if (plan !== 'free') await t.database.db.update(users).set({ plan }).where(eq(users.id, user.id));
  const response = await client.post('/api/people', { name: 'Grandma Rose', relationship: 'Grandmother' });
  if (response.statusCode !== 201) throw new Error(`person: ${response.statusCode} ${response.body}`);
  const personId = json<{ id: number }>(response).id;
  if (options.consent !== false) {
    const consent = await client.post(`/api/people/${personId}/consent`, { basis: 'guardian' });
    if (consent.statusCode !== 201) throw new Error(`consent: ${consent.statusCode} ${consent.body}`);
  }
  return { client, userId: user.id, personId };
}
