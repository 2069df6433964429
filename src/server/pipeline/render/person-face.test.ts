// The person's face as the render prepares it (loadPersonFace), on a real photo: what covers one side of
// the face is filled from the other side, so the person's own skin shows there, not the actor's.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTRAIT } from '../../testing/media-fixtures';
import { type FaceEngine, createHumanFaceEngine } from '../face-engine';
import { FOREHEAD, CHIN } from './landmarks';
import { type PersonFace, loadPersonFace } from './person-face';

/** Mesh points on the cheek of the picture's left side (MediaPipe's numbering), away from eye, nose and mouth. */
const LEFT_CHEEK = [50, 101, 118, 117, 123, 187, 205, 36, 119, 100, 147, 213];

/** The mean of a plane over a 5×5 patch around each point. */
function around(face: PersonFace, plane: Float32Array, points: number[]): number[] {
  return points.map((index) => {
    const [cx, cy] = face.landmarks[index]!;
    let sum = 0;
    for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) sum += plane[Math.round(cy! + dy) * face.width + Math.round(cx! + dx)]!;
    return sum / 25;
  });
}

describe('loadPersonFace', () => {
  let engine: FaceEngine;
  beforeAll(async () => {
    engine = await createHumanFaceEngine({ maxFaces: 3 });
  });
  afterAll(async () => {
    await engine?.close();
  });

  /** The portrait with three dark brown strands of hair down each cheek listed (mesh points: from below the eye to the jaw). */
  async function withStrands(cheeks: [number, number][]): Promise<Buffer> {
    const photo = await sharp(PORTRAIT).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const { width, height } = photo.info;
    const [face] = await engine.detect({ data: photo.data, width, height }, { mesh: true });
    const points = face!.landmarks!;
    const faceHeight = points[CHIN]![1]! - points[FOREHEAD]![1]!;
    const strands = cheeks.flatMap(([top, low]) =>
      [-0.06, 0, 0.06].map((offset) => {
        const dx = offset * faceHeight;
        return `<line x1="${points[top]![0]! + dx}" y1="${points[top]![1]}" x2="${points[low]![0]! + dx}" y2="${points[low]![1]}" stroke="rgb(52,36,28)" stroke-width="${0.025 * faceHeight}" stroke-linecap="round"/>`;
      }),
    );
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${strands.join('')}</svg>`;
    return sharp(photo.data, { raw: { width, height, channels: 3 } }).composite([{ input: Buffer.from(svg) }]).png().toBuffer();
  }

  it('fills dark strands across one cheek from the other cheek, so the person’s own skin shows there, not the actor’s', async ({ annotate }) => {
    const clean = await loadPersonFace(engine, PORTRAIT);
    const covered = await loadPersonFace(engine, await withStrands([[117, 213]]));
    // The cheek's points that are well inside the face (the outline's feather lowers the others' mask anyway).
    const cleanMask = around(clean, clean.mask, LEFT_CHEEK);
    const inside = LEFT_CHEEK.filter((_, k) => cleanMask[k]! >= 0.9);
    expect(inside.length).toBeGreaterThanOrEqual(8);
    const gaps = around(clean, clean.y, inside).map((y, k) => Math.abs(y - around(covered, covered.y, inside)[k]!));
    const meanGap = gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
    const mask = around(covered, covered.mask, inside);
    annotate(`strands on one cheek: mean |Y − clean Y| ${meanGap.toFixed(1)} at ${inside.length} cheek points (skin spread ${clean.lighting!.residualY.toFixed(1)}); mask ${Math.min(...mask).toFixed(2)}–${Math.max(...mask).toFixed(2)}`);
    // Left to fade out, the strands kept their dark pixels under a mask down to 0.36 (mean gap 43.5).
    expect(meanGap).toBeLessThan(clean.lighting!.residualY * 1.2);
    expect(Math.min(...mask)).toBeGreaterThan(0.85);
  });

  it('borrows nothing where both cheeks are covered: the strands fade out for the actor’s skin', async ({ annotate }) => {
    const covered = await loadPersonFace(engine, await withStrands([[117, 213], [346, 433]]));
    const clean = await loadPersonFace(engine, PORTRAIT);
    const cleanMask = around(clean, clean.mask, LEFT_CHEEK);
    const inside = LEFT_CHEEK.filter((_, k) => cleanMask[k]! >= 0.9);
    const mask = around(covered, covered.mask, inside);
    annotate(`strands on both cheeks: mask ${Math.min(...mask).toFixed(2)}–${Math.max(...mask).toFixed(2)} at ${inside.length} cheek points`);
    expect(Math.min(...mask)).toBeLessThan(0.6);
  });
});
