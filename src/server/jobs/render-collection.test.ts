// Which of a person's images go to the render besides the chosen one (jobs/render.ts collectionOf): the
// same face only, by embedding; a sibling's image added to the wrong person is left out and said so, as are
// blurred images and small faces.
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faceImages } from '../db/schema';
import { testDatabases } from '../testing/databases';
import { fixtures } from '../testing/media-fixtures';
import { memberWithPerson } from '../testing/people-kit';
import { type TestApp, createTestApp } from '../testing/test-app';
import type { JobDeps } from './registry';
import { collectionOf, videoNotices } from './render';

const databases = await testDatabases();

/** A unit vector at `degrees` from the first axis in the first two dimensions (cosine to [1, 0, ...] = cos(degrees)). */
const direction = (degrees: number) => [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180), 0, 0];

describe.each(databases)('the person’s collection for a render on $name', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabase);
  });
  afterAll(() => t?.close());

  it('keeps the same face, leaves out another face, far-turned, blurred, small and missing images, and tells the parent how many showed another face, blur or a small face', async () => {
    const { userId, personId } = await memberWithPerson(t);
    const stored = async () => {
      const temp = await t.storage.tempPath();
      await writeFile(temp, fixtures.jpeg());
      return (await t.storage.moveIn(temp, 'face-images', userId, 'jpg')).url;
    };
    const insert = async (name: string, faceEmbedding: number[] | null, extra: Partial<typeof faceImages.$inferInsert> = {}) =>
      (await t.database.db.insert(faceImages).values({ userId, personId, name, imageUrl: await stored(), faceEmbedding, ...extra }).returning())[0]!;

    const chosen = await insert('Chosen', direction(0));
    const laugh = await insert('Laugh (from a clip)', direction(30)); // cosine 0.87: the same face
    const sibling = await insert('Sibling', direction(70)); // cosine 0.34: another face
    await insert('Turned away', direction(20), { analysis: { pose: { yaw: 40 } } });
    await insert('Blurred', direction(15), { analysis: { detailRatio: 0.2 } });
    const sharp = await insert('Sharp', direction(25), { analysis: { detailRatio: 0.4, box: [300, 200, 140, 140] } });
    // A face under SMALL_FACE_PIXELS, which also reads blurred (too small for the blur measure): said as small.
    await insert('Far away', direction(12), { analysis: { detailRatio: 0.15, box: [300, 200, 60, 60] } });
    await insert('No embedding', null);
    const gone = await insert('File gone', direction(10));
    await t.storage.removeUrl(gone.imageUrl);

    const deps = { db: t.database.db, storage: t.storage } as JobDeps;
    const { files, notices } = await collectionOf(deps, chosen);
    expect(files.sort()).toEqual([t.storage.fromUrl(laugh.imageUrl)!.path, t.storage.fromUrl(sharp.imageUrl)!.path].sort());
    expect(files).not.toContain(t.storage.fromUrl(sibling.imageUrl)!.path);
    // In the parent's words, with the person's name: the video's page shows them (RENDER_NOTICES).
    expect(notices).toEqual([
      "1 of Grandma Rose's face images shows someone else, so it was left out of this video.",
      "1 of Grandma Rose's face images looks blurred, so it was left out of this video.",
      "1 of Grandma Rose's face images shows the face too small, so it was left out of this video.",
    ]);
    await insert('Cousin', direction(80));
    expect((await collectionOf(deps, chosen)).notices[0]).toBe("2 of Grandma Rose's face images show someone else, so they were left out of this video.");

    // A chosen image without an embedding cannot be compared: only it is used.
    const unknown = await insert('Unknown', null);
    expect(await collectionOf(deps, unknown)).toEqual({ files: [], notices: [] });

    // The chosen image is used whatever it is, and its own warnings are said again with the video.
    const turnedAndSoft = await insert('At the party', direction(5), { analysis: { pose: { yaw: -30 }, detailRatio: 0.18, eyeOpening: 0.08 } });
    expect((await collectionOf(deps, turnedAndSoft)).notices.slice(0, 3)).toEqual([
      'The face in "At the party" is turned to one side: a photo facing the camera gives a more natural video.',
      '"At the party" looks blurred: a sharp photo gives a more natural video.',
      'The eyes look closed in "At the party": a photo with open eyes gives a more natural video.',
    ]);
    const distant = await insert('Across the room', direction(5), { analysis: { detailRatio: 0.15, box: [300, 200, 70, 70] } });
    const distantNotices = (await collectionOf(deps, distant)).notices;
    expect(distantNotices[0]).toBe('The face in "Across the room" is small: a closer photo gives a more natural video.');
    expect(distantNotices.some((notice) => notice.includes('"Across the room" looks blurred'))).toBe(false);
    const eyesOpen = await insert('On the beach', direction(5), { analysis: { eyeOpening: 0.4 } });
    expect((await collectionOf(deps, eyesOpen)).notices.some((notice) => notice.includes('On the beach'))).toBe(false);
    // With an open-eyed image of the same person kept, shut eyes are still said until the render lends them
    // (videoNotices): the image may show no face the render can use.
    const { notices: withLender } = await collectionOf(deps, turnedAndSoft);
    expect(withLender).toContain('The eyes look closed in "At the party": a photo with open eyes gives a more natural video.');
    expect(videoNotices(withLender, 'At the party', { eyesLent: false, eyesAside: false })).toEqual(withLender);
    const lent = videoNotices(withLender, 'At the party', { eyesLent: true, eyesAside: false });
    expect(lent.some((notice) => notice.startsWith('The eyes look closed'))).toBe(false);
    expect(lent).toHaveLength(withLender.length - 1);
    // Eyes that look aside are found by the render alone (on the face turned frontal), and said when nothing lent better ones.
    expect(videoNotices([], 'On the beach', { eyesLent: false, eyesAside: true })).toEqual([
      'The eyes look to one side in "On the beach": a photo looking straight at the camera gives a more natural video.',
    ]);
  });
});
