// Templates get their actor tracked ahead of the families' renders: the maintenance sweep queues a job for
// each face template without a valid track, the job records it (real tracking of a real portrait, zoomed
// and moved), and the next sweep queues nothing. Voice-only templates and videos that are not our stored
// files are left alone; a replaced file is tracked again.
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videoTemplates } from '../db/schema';
import { ffmpegBinary, runProcess } from '../media/ffmpeg';
import { actorTrackFile, hasActorTrack, readActorTrack } from '../pipeline/render/actor-track';
import type { StoredFile } from '../storage/storage';
import { testDatabases } from '../testing/databases';
import { PORTRAIT } from '../testing/media-fixtures';
import { type TestApp, createTestApp } from '../testing/test-app';
import { until } from '../testing/wait';
import { queueMissingActorTracks } from './actor-track';
import type { JobDeps } from './registry';

const [pglite] = await testDatabases();
const FRAMES = 20;

describe('actor tracks recorded ahead of renders', () => {
  let t: TestApp;
  let scratch: string;
  let deps: JobDeps;
  let video: StoredFile;

  beforeAll(async () => {
    t = await createTestApp(pglite!, { workers: true });
    deps = { db: t.database.db, storage: t.storage, queue: t.queue, pipeline: t.pipeline, log: t.app.log };
    scratch = await mkdtemp(path.join(tmpdir(), 'familystar-actor-track-'));
    const store = async (fields: Partial<typeof videoTemplates.$inferInsert>) => {
      const clip = path.join(scratch, `clip-${Math.random()}.mp4`);
      await runProcess(ffmpegBinary(), [
        '-v', 'error', '-y', '-loop', '1', '-i', PORTRAIT,
        '-vf', "scale=1280:1280,crop=1280:720:0:0,zoompan=z='1.1+0.1*sin(on/5)':x='560-iw/zoom/2':y='300-ih/zoom/2':d=1:s=640x360:fps=10",
        '-frames:v', String(FRAMES), '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', clip,
      ], { timeout: 60_000 });
      const [row] = await t.database.db.insert(videoTemplates).values({ title: 'Counting', description: 'Count', duration: 2, ...fields }).returning();
      const stored = await t.storage.moveIn(clip, 'templates', row!.id, 'mp4');
      await t.database.db.update(videoTemplates).set({ videoUrl: stored.url }).where(eq(videoTemplates.id, row!.id));
      return stored;
    };
    video = await store({});
    await store({ title: 'Colours', voiceOnly: true });
    await t.database.db.insert(videoTemplates).values({ title: 'Elsewhere', description: 'Not our file', duration: 2, videoUrl: 'https://example.com/elsewhere.mp4' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('queues the face template alone, records its track, then queues nothing; a replaced file is tracked again', async () => {
    const track = actorTrackFile(video.path);
    expect(await queueMissingActorTracks(deps)).toBe(1);
    // While its job is on the way (or done), the next sweep does not queue it twice.
    expect(await queueMissingActorTracks(deps)).toBe(0);
    await until(() => hasActorTrack(track, video.path, 'mesh-only'), (done) => done, 60_000, 100);
    const recorded = (await readActorTrack(track, video.path, 'mesh-only'))!;
    expect(recorded.header.frames).toBe(FRAMES);
    // The actor's face was found in every frame (no NaN).
    expect(recorded.points.every((value) => Number.isFinite(value))).toBe(true);
    expect(await queueMissingActorTracks(deps)).toBe(0);

    await utimes(video.path, new Date(), new Date(Date.now() + 5000));
    expect(await queueMissingActorTracks(deps)).toBe(1);
    await until(() => hasActorTrack(track, video.path, 'mesh-only'), (done) => done, 60_000, 100);
  }, 120_000);
});
