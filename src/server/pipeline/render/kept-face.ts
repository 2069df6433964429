// The person's face as the render prepares it (person-face.ts loadPersonFace: found, cut out, turned
// frontal, its light and what covers it worked out), kept beside the image it came from (`<image>.face`)
// and read back by every later render of that image: the preparation is about a second of one core per
// image (a person with a collection of crops from their clips has up to nine), spent again on every video.
// It is prepared ahead where it can be: a photo as it is stored (jobs/keep-face.ts), a clip's crops as their
// extraction ends (jobs/face-extraction.ts); otherwise by the first render that needs it.
// The file belongs to one image (its size and modification time) and one version of the code that prepares
// it (a hash of that code: a new release prepares every face again, on its next render). Storage removes
// it with the image (storage.ts: a stored file's `<name>.*` siblings); it is never served (media URLs name
// only the stored files themselves) and not exported (a copy of the image's own pixels, derived).
//
// Format: one line of JSON (the header: the image's size and time, the code's hash, the face's figures),
// then its planes' bytes in PLANES' order, deflated (level 1: a tenth of a second to write, about 40 ms to
// read, 2.5-3.5 MB for a 600 × 640 cut-out).
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { deflate, inflate } from 'node:zlib';
import { isEyesClosed } from '../../../shared/face-analysis';
import { type FaceEngine, packageDir } from '../face-engine';
import { type PersonFace, loadPersonFace } from './person-face';

/** Where an image's prepared face is kept. */
export function keptFaceFile(image: string): string {
  return `${image}.face`;
}

/** The planes kept after the header, in this order: float32 first, so every one starts on a multiple of 4. */
const PLANES = [
  ['y', Float32Array],
  ['u', Float32Array],
  ['v', Float32Array],
  ['mask', Float32Array],
  ['mouthArea', Float32Array],
  ['eyeArea', Float32Array],
  ['beardHair', Float32Array],
  ['glassesFrames', Float32Array],
  ['core', Uint8Array],
  ['skin', Uint8Array],
] as const;
type PlaneName = (typeof PLANES)[number][0];
type Figures = Omit<PersonFace, PlaneName>;

interface KeptHeader {
  version: string;
  /** The image's size and modification time: a kept face belongs to one file. */
  size: number;
  mtimeMs: number;
  figures: Figures;
}

let version: string | undefined;

/**
 * The code that prepares a face, as a hash: the files of this module's folder and the one above it (in
 * development the render's and the pipeline's sources, face-engine.ts among them; built, the bundles) and
 * the face models' version. Coarse on purpose: any change there prepares the faces again, once each.
 */
function preparationVersion(): string {
  if (version) return version;
  const hash = createHash('sha256');
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const folder of [here, path.dirname(here)]) {
    for (const name of readdirSync(folder).filter((each) => /\.(ts|js|mjs)$/.test(each) && !/\.test\.ts$/.test(each)).sort()) {
      hash.update(name).update(readFileSync(path.join(folder, name)));
    }
  }
  hash.update(readFileSync(path.join(packageDir('@vladmandic/human'), 'package.json')));
  version = hash.digest('hex').slice(0, 16);
  return version;
}

/**
 * The face prepared from `image` as loadPersonFace prepares it with these options: read from beside the
 * image when it was kept for this file by this code, else prepared and kept there (a face that cannot be
 * kept is used all the same). `kept`: whether it was read. A kept face without its eyes' opening is prepared
 * again when the opening is asked for and not given.
 */
export async function keptPersonFace(
  engine: FaceEngine,
  image: string,
  options: { eyes?: boolean; eyeOpening?: number } = {},
): Promise<{ face: PersonFace; kept: boolean }> {
  const file = keptFaceFile(image);
  const kept = await readKeptFace(file, image);
  if (kept && (options.eyeOpening !== undefined || kept.eyeOpening !== undefined || options.eyes === false)) {
    const opening = options.eyeOpening ?? kept.eyeOpening;
    return { face: { ...kept, eyeOpening: opening, eyesShut: opening !== undefined && isEyesClosed(opening) }, kept: true };
  }
  const face = await loadPersonFace(engine, image, options);
  await saveKeptFace(file, image, face).catch(() => undefined);
  return { face, kept: false };
}

/** Writes the face beside its image: to a file of its own, then renamed (a reader never sees half of one; two writers leave one). */
export async function saveKeptFace(file: string, image: string, face: PersonFace): Promise<void> {
  const info = await stat(image);
  const figures = Object.fromEntries(Object.entries(face).filter(([name]) => !PLANES.some(([plane]) => plane === name))) as Figures;
  const header: KeptHeader = { version: preparationVersion(), size: info.size, mtimeMs: info.mtimeMs, figures };
  const planes = PLANES.map(([name]) => Buffer.from(face[name].buffer, face[name].byteOffset, face[name].byteLength));
  const body = await promisify(deflate)(Buffer.concat(planes), { level: 1 });
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]));
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
  // The parent may have deleted the image meanwhile: storage removes its siblings after the image, so a
  // face renamed in after that removal finds the image gone here and goes too (nothing of it is left).
  if (!(await stat(image).catch(() => undefined))) {
    await rm(file, { force: true });
    throw new Error('the image was deleted while its face was kept');
  }
}

/** The face kept for this image by this code, or undefined (none yet, another file or code, unreadable). */
export async function readKeptFace(file: string, image: string): Promise<PersonFace | undefined> {
  const [bytes, info] = await Promise.all([readFile(file).catch(() => undefined), stat(image).catch(() => undefined)]);
  if (!bytes || !info) return undefined;
  try {
    const end = bytes.indexOf(0x0a);
    const header = JSON.parse(bytes.subarray(0, end).toString()) as KeptHeader;
    if (header.version !== preparationVersion() || header.size !== info.size || header.mtimeMs !== info.mtimeMs) return undefined;
    const body = await promisify(inflate)(bytes.subarray(end + 1));
    const { width, height } = header.figures;
    let offset = 0;
    const planes = {} as Pick<PersonFace, PlaneName>;
    for (const [name, Type] of PLANES) {
      const length = width * height * Type.BYTES_PER_ELEMENT;
      if (offset + length > body.length) return undefined;
      // A copy: the inflated buffer may sit at an offset that is not a multiple of 4.
      const plane = new Type(width * height);
      new Uint8Array(plane.buffer).set(body.subarray(offset, offset + length));
      (planes as Record<PlaneName, Float32Array | Uint8Array>)[name] = plane;
      offset += length;
    }
    if (offset !== body.length) return undefined;
    // JSON keeps an iris that was not found as null.
    const irises = header.figures.irises.map((iris) => iris ?? undefined);
    return { ...header.figures, ...planes, irises };
  } catch {
    return undefined;
  }
}
