// A person's prepared face kept beside their photo (kept-face.ts): read back as it was prepared, and
// prepared again when the photo or the kept file is not the one it was made from, or lacks what is asked.
import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaceEngine, createHumanFaceEngine } from '../face-engine';
import { keptFaceFile, keptPersonFace, readKeptFace } from './kept-face';
import { type PersonFace, loadPersonFace } from './person-face';

const require = createRequire(import.meta.url);
const SAMPLE3 = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', 'sample3.jpg');

/** The face's figures, and its planes as hashes (a deep comparison of ten million numbers takes vitest half a minute). */
function split(face: PersonFace) {
  const hash = (plane: ArrayBufferView) => createHash('sha256').update(new Uint8Array(plane.buffer, plane.byteOffset, plane.byteLength)).digest('hex');
  return Object.fromEntries(Object.entries(face).map(([name, value]) => [name, ArrayBuffer.isView(value) ? `${value.constructor.name} ${hash(value)}` : value]));
}

describe('kept faces', () => {
  let engine: FaceEngine;
  let scratch: string;
  let photo: string;
  beforeAll(async () => {
    engine = await createHumanFaceEngine();
    scratch = await mkdtemp(path.join(tmpdir(), 'kept-face-'));
    photo = path.join(scratch, 'photo.jpg');
    await copyFile(SAMPLE3, photo);
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('keeps the face prepared from a photo beside it and reads it back as it was prepared', async () => {
    const first = await keptPersonFace(engine, photo);
    expect(first.kept).toBe(false);
    // Deflated: a few MB, not the ten of its planes.
    const { size } = await stat(keptFaceFile(photo));
    expect(size).toBeGreaterThan(500_000);
    expect(size).toBeLessThan(6_000_000);
    const second = await keptPersonFace(engine, photo);
    expect(second.kept).toBe(true);
    const fresh = await loadPersonFace(engine, photo);
    // Every figure and every plane, to the bit (an iris not found stays undefined, not null).
    for (const face of [first.face, second.face]) expect(split(face)).toEqual(split(fresh));
  }, 60_000);

  it('prepares the face again for a changed photo, a damaged file, or eyes it did not measure', async () => {
    await keptPersonFace(engine, photo);
    // Another photo under the same name (its time changed).
    await utimes(photo, new Date(), new Date(Date.now() + 5000));
    expect(await readKeptFace(keptFaceFile(photo), photo)).toBeUndefined();
    expect((await keptPersonFace(engine, photo)).kept).toBe(false);
    expect((await keptPersonFace(engine, photo)).kept).toBe(true);
    // Cut short: prepared again, no error.
    await writeFile(keptFaceFile(photo), '{"version":"x"}\n');
    expect((await keptPersonFace(engine, photo)).kept).toBe(false);

    // Kept without the eyes' opening (an image that only lent its mouth): read when the opening is not
    // asked for, or given; prepared again when it is asked for.
    await rm(keptFaceFile(photo));
    expect((await keptPersonFace(engine, photo, { eyes: false })).face.eyeOpening).toBeUndefined();
    expect((await keptPersonFace(engine, photo, { eyes: false })).kept).toBe(true);
    const given = await keptPersonFace(engine, photo, { eyeOpening: 0.05 });
    expect(given).toMatchObject({ kept: true, face: { eyeOpening: 0.05, eyesShut: true } });
    const measured = await keptPersonFace(engine, photo);
    expect(measured.kept).toBe(false);
    expect(measured.face.eyeOpening).toBeGreaterThan(0.2);
    expect((await keptPersonFace(engine, photo)).face.eyeOpening).toBe(measured.face.eyeOpening);
  }, 120_000);
});
