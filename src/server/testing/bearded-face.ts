// A bearded face for the tests, made of a real one: no photo of a bearded man ships with the project or its
// packages (the demo photos are women's; the talking man is clean-shaven). The talking man (../shared/media)
// is given a beard of his own hair: a patch of it from his crown, repeated at its own scale over his chin
// and jaw below the lower lip, its edge softened. Photos of real bearded men were tried with bench/render
// (decision 014, forty-second part).
import sharp from 'sharp';
import type { FaceEngine } from '../pipeline/face-engine';
import { CHIN, FOREHEAD } from '../pipeline/render/landmarks';
import { fixtures } from './media-fixtures';

/** The jaw's line of mesh points, from the left ear's foot round the chin to the right one's. */
const JAW = [132, 58, 172, 136, 150, 149, 176, 148, 152, 377, 400, 378, 379, 365, 397, 288, 361];
/** The lower lip's outer edge, from the right corner to the left. */
const LOWER_LIP = [291, 375, 321, 405, 314, 17, 84, 181, 91, 146, 61];

/** The talking man at 2 s with a beard of his own hair, as a PNG. */
export async function beardedMan(engine: FaceEngine): Promise<Buffer> {
  const frame = fixtures.manStill(2);
  const photo = await sharp(frame).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const [face] = await engine.detect({ data: photo.data, width: photo.info.width, height: photo.info.height }, { mesh: true });
  const points = face!.landmarks!;
  const faceHeight = points[CHIN]![1]! - points[FOREHEAD]![1]!;
  const outline = [...JAW.map((i) => [points[i]![0]!, points[i]![1]!]), ...LOWER_LIP.map((i) => [points[i]![0]!, points[i]![1]! + 0.02 * faceHeight])].map(([x, y]) => [Math.round(x!), Math.round(y!)] as const);
  const [left, top] = [Math.min(...outline.map(([x]) => x)), Math.min(...outline.map(([, y]) => y))];
  const [width, height] = [Math.max(...outline.map(([x]) => x)) - left, Math.max(...outline.map(([, y]) => y)) - top];
  const crown = { left: Math.round(points[FOREHEAD]![0]! - 0.2 * faceHeight), top: Math.round(points[FOREHEAD]![1]! - 0.3 * faceHeight), width: Math.round(0.4 * faceHeight), height: Math.round(0.12 * faceHeight) };
  const shape = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><polygon fill="white" points="${outline.map(([x, y]) => `${x - left},${y - top}`).join(' ')}"/></svg>`;
  const hair = await sharp(frame).extract(crown).png().toBuffer();
  const repeated = await sharp(hair).extend({ right: width, bottom: height, extendWith: 'repeat' }).png().toBuffer();
  const tiled = await sharp(repeated).extract({ left: 0, top: 0, width, height }).png().toBuffer();
  const beard = await sharp(tiled).composite([{ input: await sharp(Buffer.from(shape)).blur(0.01 * faceHeight).png().toBuffer(), blend: 'dest-in' }]).png().toBuffer();
  return sharp(frame).composite([{ input: beard, left, top }]).png().toBuffer();
}
