// Per-user limits on queued work: a parent with MAX_WAITING_PER_USER clips waiting gets 429 for the next,
// nothing of it stored; other parents are not held back; priorities favour whoever has less waiting.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_ANALYSIS_MESSAGES } from '../../shared/face-analysis';
import { testDatabases } from '../testing/databases';
import { dataUrl, filesUnder, fixtures } from '../testing/media-fixtures';
import { memberWithPerson } from '../testing/people-kit';
import { type TestApp, createTestApp, json } from '../testing/test-app';
import { MAX_WAITING_PER_USER } from './enqueue';

const [pglite] = await testDatabases();

describe('queued work per user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(pglite!);
  });
  afterAll(() => t?.close());

  it(`refuses the clip after ${MAX_WAITING_PER_USER} waiting (429), and queues others' first clips ahead`, async () => {
    const busy = await memberWithPerson(t);
    const post = (m: typeof busy, name: string) =>
      m.client.post('/api/faceVideos', { personId: m.personId, name, expressionType: 'neutral', videoData: dataUrl(fixtures.mp4(), 'video/mp4') });
    for (let index = 0; index < MAX_WAITING_PER_USER; index++) expect((await post(busy, `clip ${index}`)).statusCode).toBe(201);
    const files = filesUnder(t.storage.root);
    const refused = await post(busy, 'one too many');
    expect(refused.statusCode).toBe(429);
    expect(json(refused)).toEqual({ message: FACE_ANALYSIS_MESSAGES.tooManyWaiting });
    expect(refused.headers['retry-after']).toBe('30');
    expect(filesUnder(t.storage.root)).toEqual(files);

    const other = await memberWithPerson(t);
    expect((await post(other, 'first')).statusCode).toBe(201);
    const result = (await t.database.db.execute(
      sql`select (data->>'faceVideoId')::int as id, priority from pgboss.job where name = 'face-extraction' order by priority desc, created_on limit 2`,
    )) as unknown as { rows: { id: number; priority: number }[] };
    // The other parent's first clip and the busy parent's first clip share the top priority (0).
    expect(result.rows.map((row) => row.priority)).toEqual([0, 0]);
  });
});
