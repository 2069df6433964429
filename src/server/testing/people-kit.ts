// Helpers the people, faces and voices suites share: signed-in users with a person, multipart bodies.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema';
import { type TestApp, type TestClient, json } from './test-app';

export interface Member {
  client: TestClient;
  userId: number;
  personId: number;
}

/** A new signed-in user (role user, on `plan`) with one person. */
export async function memberWithPerson(t: TestApp, plan: 'free' | 'premium' | 'family' = 'free'): Promise<Member> {
  const client = t.client();
  const { user } = await client.register();
  if (plan !== 'free') await t.database.db.update(users).set({ plan }).where(eq(users.id, user.id));
  const response = await client.post('/api/people', { name: 'Grandma Rose', relationship: 'Grandmother' });
  if (response.statusCode !== 201) throw new Error(`person: ${response.statusCode} ${response.body}`);
  return { client, userId: user.id, personId: json<{ id: number }>(response).id };
}

/**
 * A multipart/form-data body as a stream, parts in the order given. A file part's content may be a
 * Buffer or a number of zero bytes (streamed, never held in memory: for the 100 MB tests).
 */
export function multipart(parts: ({ name: string; value: string } | { name: string; filename: string; type: string; content: Buffer | number })[]) {
  const boundary = `----familystar${randomBytes(8).toString('hex')}`;
  async function* body() {
    for (const part of parts) {
      if ('value' in part) {
        yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`);
        continue;
      }
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`,
      );
      if (typeof part.content === 'number') {
        const chunk = Buffer.alloc(1024 * 1024);
        for (let left = part.content; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
      } else {
        yield part.content;
      }
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return { payload: Readable.from(body()), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
