// Glasses for the tests, drawn on a real face: no photo of a person in glasses ships with the project or its
// packages. Dark frames as most glasses have them: a rounded rectangle round each eye (about twice the eye's
// width), a bridge across the nose between them, and the arms out to the face's sides, drawn along the face's
// eye line. Photos of real people in glasses were tried with bench/render (decision 014, forty-third part).
import sharp from 'sharp';
import type { FaceEngine } from '../pipeline/face-engine';
import { LEFT_EYE_CORNERS, RIGHT_EYE_CORNERS } from '../pipeline/render/landmarks';

/** The face's sides at the eyes' height (mesh points on the outline, left then right). */
const TEMPLES = [127, 356] as const;

/** `image` (a photo of one face) with dark glasses drawn on, as a PNG. */
export async function withGlasses(engine: FaceEngine, image: string | Buffer): Promise<Buffer> {
  const photo = await sharp(image).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = photo.info;
  const [face] = await engine.detect({ data: photo.data, width, height }, { mesh: true });
  const at = (i: number) => face!.landmarks![i]!;
  const eyes = [LEFT_EYE_CORNERS, RIGHT_EYE_CORNERS].map(([a, b]) => {
    const [p, q] = [at(a), at(b)];
    return { x: (p[0]! + q[0]!) / 2, y: (p[1]! + q[1]!) / 2, width: Math.hypot(q[0]! - p[0]!, q[1]! - p[1]!) };
  });
  const [left, right] = eyes as [(typeof eyes)[number], (typeof eyes)[number]];
  const angle = (Math.atan2(right.y - left.y, right.x - left.x) * 180) / Math.PI;
  const eyeWidth = (left.width + right.width) / 2;
  const stroke = Math.max(2, 0.16 * eyeWidth);
  // Each lens: 1.7 eye widths across, 1.1 high, a little below the eye's centre, turned with the eye line about it.
  const lens = ({ x, y }: { x: number; y: number }) =>
    `<rect x="${x - 0.85 * eyeWidth}" y="${y - 0.5 * eyeWidth}" width="${1.7 * eyeWidth}" height="${1.1 * eyeWidth}" rx="${0.25 * eyeWidth}" transform="rotate(${angle} ${x} ${y})"/>`;
  const line = ([x1, y1]: number[], [x2, y2]: number[]) => `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`;
  const along = (eye: { x: number; y: number }, by: number, up: number) => {
    const r = (angle * Math.PI) / 180;
    return [eye.x + by * eyeWidth * Math.cos(r) + up * eyeWidth * Math.sin(r), eye.y + by * eyeWidth * Math.sin(r) - up * eyeWidth * Math.cos(r)];
  };
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <g fill="none" stroke="rgb(25,22,20)" stroke-width="${stroke}">
      ${lens(left)}${lens(right)}
      ${line(along(left, 0.85, 0.25), along(right, -0.85, 0.25))}
      ${line(along(left, -0.85, 0.3), [at(TEMPLES[0])[0]!, at(TEMPLES[0])[1]!])}
      ${line(along(right, 0.85, 0.3), [at(TEMPLES[1])[0]!, at(TEMPLES[1])[1]!])}
    </g></svg>`;
  return sharp(image).rotate().removeAlpha().composite([{ input: Buffer.from(svg) }]).png().toBuffer();
}
