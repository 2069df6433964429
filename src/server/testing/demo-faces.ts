// Another person of a group photo, cut out as a parent crops one for a profile: the square round the
// face's box grown 1.8 times, within the photo. bench/render's cases (`sample1.3`) and the tests that put
// those people on a template cut them the same way.
import sharp from 'sharp';
import type { FaceEngine } from '../pipeline/face-engine';

/** The `nth` largest face of `photo` (1: the largest) cut out to `output` as a JPEG; returns the face's box and the cut's place in the photo. */
export async function cutNthFace(
  engine: FaceEngine,
  photo: string,
  nth: number,
  output: string,
): Promise<{ box: [number, number, number, number]; left: number; top: number; side: number }> {
  const image = await sharp(photo).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = image.info;
  const faces = (await engine.detect({ data: image.data, width, height }, { maxFaces: 10 })).sort((p, q) => q.box[2] * q.box[3] - p.box[2] * p.box[3]);
  const face = faces[nth - 1];
  if (!face) throw new Error(`${photo} has ${faces.length} faces: no face ${nth}`);
  const [x, y, w, h] = face.box;
  const side = Math.min(width, height, Math.round(1.8 * Math.max(w, h)));
  const left = Math.max(0, Math.min(width - side, Math.round(x + w / 2 - side / 2)));
  const top = Math.max(0, Math.min(height - side, Math.round(y + h / 2 - side / 2)));
  await sharp(photo).rotate().extract({ left, top, width: side, height: side }).jpeg({ quality: 95 }).toFile(output);
  return { box: face.box, left, top, side };
}
