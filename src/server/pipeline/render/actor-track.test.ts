// The recorded actor track: written whole or not at all, read back only for the same file and tracker,
// replayed frame by frame, and removed by storage with the template's file. Rendering with it (the
// same video, live then replayed) is face-render.test.ts.
import { mkdtemp, readFile, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from '../../storage/storage';
import { actorTrackFile, createTrackRecorder, readActorTrack, replayTracker, saveActorTrack } from './actor-track';
import type { FaceTracker, TrackedFace } from './face-track';
import type { YuvFrame } from './yuv';

const POINTS = 468;
const stats = { fullDetections: 2, cropTracks: 7, lostInCrop: 1, mostFaces: 2 };
const tracker = { mode: 'mesh-only', stats } as FaceTracker;
/** A replay never looks at the frame. */
const NO_FRAME = {} as YuvFrame;

/** A face drifting right, a third of a pixel a frame, with points spread over ~200 px. */
const faceAt = (frame: number): TrackedFace => ({
  landmarks: Array.from({ length: POINTS }, (_, i) => [300.123456 + frame / 3 + (i % 20) * 10, 200.987654 + Math.floor(i / 20) * 9, 5]),
  score: 0.9,
  via: 'crop',
});

describe('actor track', () => {
  let dir: string;
  let template: string;
  let track: string;
  const faces = [faceAt(0), faceAt(1), undefined, faceAt(3)];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'familystar-track-'));
    template = path.join(dir, 'template.mp4');
    await writeFile(template, 'not really a video: only its size and time are read');
    track = actorTrackFile(template);
    const recorder = createTrackRecorder();
    for (const face of faces) recorder.add(face);
    await saveActorTrack(track, await recorder.track(template, tracker));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('replays what was recorded, frame by frame, and no face past the end', async () => {
    expect(await readdir(dir)).toEqual(['template.mp4', 'template.mp4.track']);
    const recorded = (await readActorTrack(track, template, 'mesh-only'))!;
    expect(recorded.header).toMatchObject({ frames: 4, points: POINTS, stats, mode: 'mesh-only' });
    const replay = replayTracker(recorded);
    expect(replay.stats).toEqual(stats);
    for (const face of faces) {
      const replayed = await replay.track(NO_FRAME);
      if (!face) {
        expect(replayed).toBeUndefined();
        continue;
      }
      expect(replayed!.landmarks).toHaveLength(POINTS);
      replayed!.landmarks.forEach(([x, y], i) => {
        expect(Math.abs(x! - face.landmarks[i]![0]!)).toBeLessThan(1e-3);
        expect(Math.abs(y! - face.landmarks[i]![1]!)).toBeLessThan(1e-3);
      });
    }
    expect(replay.framesLeft).toBe(0);
    expect(await replay.track(NO_FRAME)).toBeUndefined();
  });

  it('keeps no file for a template without a face, and replays no face from its track', async () => {
    const recorder = createTrackRecorder();
    for (let i = 0; i < 3; i++) recorder.add(undefined);
    const empty = await recorder.track(template, tracker);
    expect(empty.header).toMatchObject({ frames: 3, points: 0 });
    const file = path.join(dir, 'empty.track');
    await saveActorTrack(file, empty);
    expect(await readActorTrack(file, template, 'mesh-only')).toBeUndefined();
    const replay = replayTracker(empty);
    for (let i = 0; i < 3; i++) expect(await replay.track(NO_FRAME)).toBeUndefined();
    expect(replay.framesLeft).toBe(0);
  });

  it('is not used for another tracker, a changed file or a cut-off track', async () => {
    expect(await readActorTrack(track, template, 'detect-on-crop')).toBeUndefined();
    expect(await readActorTrack(path.join(dir, 'none.track'), template, 'mesh-only')).toBeUndefined();

    const copy = path.join(dir, 'copy.track');
    await writeFile(copy, await readFile(track));
    expect(await readActorTrack(copy, template, 'mesh-only')).toBeDefined();
    await truncate(copy, (await readFile(copy)).length - 4);
    expect(await readActorTrack(copy, template, 'mesh-only')).toBeUndefined();
    await writeFile(copy, 'garbage\n');
    expect(await readActorTrack(copy, template, 'mesh-only')).toBeUndefined();

    const changed = path.join(dir, 'changed.mp4');
    await writeFile(changed, 'another video');
    expect(await readActorTrack(track, changed, 'mesh-only')).toBeUndefined();
  });

  it('is removed with its template’s file, and nothing else is', async () => {
    const storage = createStorage(path.join(dir, 'data'));
    const staged = path.join(dir, 'staged.mp4');
    await writeFile(staged, 'template');
    const file = await storage.moveIn(staged, 'templates', 7, 'mp4');
    // Another template file in the same folder stays.
    const neighbour = path.join(path.dirname(file.path), '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f.mp4');
    await writeFile(neighbour, 'another template');
    const recorder = createTrackRecorder();
    recorder.add(faceAt(0));
    await saveActorTrack(actorTrackFile(file.path), await recorder.track(file.path, tracker));
    expect((await readdir(path.dirname(file.path))).sort()).toEqual([path.basename(neighbour), file.fileName, `${file.fileName}.track`].sort());
    await storage.removeUrl(file.url);
    expect(await readdir(path.dirname(file.path))).toEqual([path.basename(neighbour)]);
  });
});
