// The periodic sweep: rows whose job is gone never stay waiting or "processing", stale temporary files go.
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_ANALYSIS_MESSAGES } from '../../shared/face-analysis';
import { faceVideos, users } from '../db/schema';
import { testDatabases } from '../testing/databases';
import { dataUrl, fixtures } from '../testing/media-fixtures';
import { memberWithPerson } from '../testing/people-kit';
import { type TestApp, createTestApp, json } from '../testing/test-app';
import { maintenanceJob, removeMediaOfDeletedAccounts } from './maintenance';

const databases = await testDatabases();

describe.each(databases)('maintenance on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabase);
  });
  afterAll(() => t?.close());

  const liveJobs = async (faceVideoId: number) => {
    const result = (await t.database.db.execute(
      sql`select count(*)::int as n from pgboss.job where name = 'face-extraction' and state in ('created', 'retry', 'active') and (data->>'faceVideoId')::int = ${faceVideoId}`,
    )) as unknown as { rows: { n: number }[] };
    return result.rows[0]!.n;
  };

  it('fails a "processing" clip whose job is gone, queues a waiting one that has none, and leaves fresh ones', async () => {
    const m = await memberWithPerson(t);
    const make = async (name: string) => {
      const response = await m.client.post('/api/faceVideos', { personId: m.personId, name, expressionType: 'neutral', videoData: dataUrl(fixtures.mp4(), 'video/mp4') });
      expect(response.statusCode).toBe(201);
      return json<{ id: number }>(response).id;
    };
    const [lost, orphan, fresh] = [await make('lost'), await make('orphan'), await make('fresh')];
    // Their jobs vanish (as if pg-boss had dropped them); two of the rows are old.
    await t.database.db.execute(sql`delete from pgboss.job where name = 'face-extraction'`);
    const old = new Date(Date.now() - 60 * 60 * 1000);
    await t.database.db.update(faceVideos).set({ processingStatus: 'processing', createdAt: old }).where(eq(faceVideos.id, lost));
    await t.database.db.update(faceVideos).set({ createdAt: old }).where(eq(faceVideos.id, orphan));

    await maintenanceJob({ db: t.database.db, storage: t.storage, queue: t.queue, pipeline: t.pipeline, log: t.app.log });

    const rows = await t.database.db.select().from(faceVideos);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(lost)).toMatchObject({ processingStatus: 'failed', errorMessage: FACE_ANALYSIS_MESSAGES.clipFailed });
    expect(byId.get(orphan)).toMatchObject({ processingStatus: 'pending' });
    expect(await liveJobs(orphan)).toBe(1);
    expect(byId.get(fresh)).toMatchObject({ processingStatus: 'pending' });
    expect(await liveJobs(fresh)).toBe(0);
  });

  it('removes temporary files older than six hours and keeps newer ones', async () => {
    const tmp = path.join(t.dataDir, 'tmp');
    await mkdir(path.join(tmp, 'job-dir'), { recursive: true });
    await writeFile(path.join(tmp, 'old-upload'), 'x');
    await writeFile(path.join(tmp, 'new-upload'), 'x');
    const longAgo = new Date(Date.now() - 7 * 60 * 60 * 1000);
    await utimes(path.join(tmp, 'old-upload'), longAgo, longAgo);
    await utimes(path.join(tmp, 'job-dir'), longAgo, longAgo);
    expect(await t.storage.sweepTemp(6 * 60 * 60 * 1000)).toBe(2);
    // Besides this process's own temporary folder (storage/temp-folders.test.ts).
    expect((await readdir(tmp)).filter((entry) => path.join(tmp, entry) !== t.storage.tempFolder)).toEqual(['new-upload']);
  });

  it("removes the media folders of an account that is gone (a crash between its rows and its files), and no one else's", async () => {
    const gone = await memberWithPerson(t);
    const kept = await memberWithPerson(t);
    for (const m of [gone, kept]) {
      const response = await m.client.post('/api/faceImages', { personId: m.personId, name: 'Front', imageData: dataUrl(fixtures.jpeg(), 'image/jpeg') });
      expect(response.statusCode).toBe(201);
    }
    // The account's rows go as deleting it does, but its files stay (the process died before removing them).
    await t.database.db.delete(users).where(eq(users.id, gone.userId));
    expect(await t.storage.ownersOf('face-images')).toEqual(expect.arrayContaining([gone.userId, kept.userId]));

    expect(await removeMediaOfDeletedAccounts({ db: t.database.db, storage: t.storage })).toBe(1);
    const owners = await t.storage.ownersOf('face-images');
    expect(owners).toContain(kept.userId);
    expect(owners).not.toContain(gone.userId);
  });
});
