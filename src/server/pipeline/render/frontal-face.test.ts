// Turning a photographed face to the camera, on real photos (face-api's demo group photos: turned,
// tilted and near frontal faces), with the real mesh.
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaceEngine, createHumanFaceEngine } from '../face-engine';
import { FRONTAL, type MeshTopology, forEachPixelIn, frontalise, headAxes, meshTopology } from './frontal-face';
import { EYE_CONTOURS, LOWER_INNER_LIP, type Point, UPPER_INNER_LIP, grownHull, insidePolygon, pick } from './landmarks';
import { rgbToYuvPlanes, sampleBilinear } from './yuv';

const SAMPLES = path.join(path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')), 'demo');

/** Mean distance of mirror points from being mirror images about the face's midline, ÷ the face's width. */
function asymmetry(landmarks: number[][], { mirror, side }: MeshTopology): number {
  const xs = landmarks.map(([x]) => x!);
  const midline = [152, 1, 10, 168, 6].reduce((sum, i) => sum + landmarks[i]![0]! / 5, 0);
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < landmarks.length; i++) {
    if (side[i] !== -1) continue;
    sum += Math.abs(landmarks[i]![0]! - midline + (landmarks[mirror[i]!]![0]! - midline));
    pairs++;
  }
  return sum / pairs / (Math.max(...xs) - Math.min(...xs));
}

describe('frontalise', () => {
  let engine: FaceEngine;
  beforeAll(async () => {
    engine = await createHumanFaceEngine({ maxFaces: 10 });
  });
  afterAll(() => engine?.close());

  /** The photo's largest face; `size`: the photo scaled by it first. */
  async function largestFace(name: string, size = 1) {
    const file = path.join(SAMPLES, `${name}.jpg`);
    const { width } = await sharp(file).metadata();
    const { data, info } = await sharp(file).resize(Math.round(width! * size)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const faces = (await engine.detect({ data, width: info.width, height: info.height }, { mesh: true, maxFaces: 10 })).filter((face) => face.landmarks);
    const face = faces.sort((p, q) => q.box[2] * q.box[3] - p.box[2] * p.box[3])[0]!;
    return { planes: rgbToYuvPlanes({ data, width: info.width, height: info.height }), width: info.width, height: info.height, landmarks: face.landmarks! };
  }

  it('knows each mesh point’s mirror across the face', () => {
    const { mirror, side, triangles } = meshTopology(engine.meshReference!());
    expect(triangles.length).toBe(880 * 3);
    // Outer eye corners, mouth corners; the nose tip and the chin are on the midline.
    expect([mirror[33], mirror[263], mirror[61], mirror[291]]).toEqual([263, 33, 291, 61]);
    expect([side[1], side[152], side[33], side[263]]).toEqual([0, 0, -1, 1]);
    const involutive = [...mirror].filter((j, i) => mirror[j] === i).length;
    expect(involutive / mirror.length).toBeGreaterThan(0.95);
  });

  it('turns a turned and a tilted face to the camera: the mesh comes out symmetric, the pixels move with it', async () => {
    // sample4: turned to her right and looking down; sample2: tilted towards her shoulder and looking down.
    for (const name of ['sample4', 'sample2']) {
      const face = await largestFace(name);
      const turned = frontalise(face.planes, face.width, face.height, face.landmarks, meshTopology(engine.meshReference!()));
      expect(turned.turnDegrees).toBeGreaterThan(FRONTAL.minTurnDegrees);
      const mesh = meshTopology(engine.meshReference!());
      expect(asymmetry(turned.landmarks, mesh)).toBeLessThan(0.5 * asymmetry(face.landmarks, mesh));
      // Straight: the eyes level, the chin below the forehead on one vertical line.
      const axes = headAxes(turned.landmarks, meshTopology(engine.meshReference!()));
      expect(Math.abs(axes.forward[2])).toBeGreaterThan(0.99);
      // The far side of a turned face is partly filled from its mirror; most of the face is its own.
      expect(turned.mirroredShare).toBeGreaterThan(0);
      expect(turned.mirroredShare).toBeLessThan(0.5);
      // The pixels moved: the picture differs where the face is.
      const [x, y] = turned.landmarks[1]!;
      const at = Math.round(y!) * face.width + Math.round(x!);
      expect(turned.planes.y).not.toBe(face.planes.y);
      expect(Math.abs(turned.planes.y[at]! - face.planes.y[at]!) + Math.abs(turned.planes.y[at + 20]! - face.planes.y[at + 20]!)).toBeGreaterThan(0);
    }
  });

  it('reads the same turn whatever the face’s size in the photo', async () => {
    // The mesh's depth once came in the mesh crop's units whatever the face's size: sample1 at half its size
    // read 53.5° turned against 32.3°, and sample2 at half its size hid 0.36 of her face (turned away) against 0.2.
    const mesh = meshTopology(engine.meshReference!());
    for (const name of ['sample1', 'sample2']) {
      const turns = [];
      for (const size of [0.5, 1, 2]) {
        const face = await largestFace(name, size);
        turns.push(frontalise(face.planes, face.width, face.height, face.landmarks, mesh));
      }
      const degrees = turns.map((turned) => turned.turnDegrees);
      const shares = turns.map((turned) => turned.mirroredShare);
      expect(Math.max(...degrees) - Math.min(...degrees)).toBeLessThan(2);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThan(0.04);
    }
  });

  it('carries what shows between the lips with the lips (the mesh has no triangles there)', async () => {
    // sample1 (turned, mouth open) and sample4 (turned, looking down, teeth showing). The photo's own
    // opening is marked (V at its most); once turned, the middle of the turned opening shows the mark. Left
    // as the unturned photo, it showed 0.71 and 0.80 of it: the teeth cut off by the lips' turned edges.
    for (const name of ['sample1', 'sample4']) {
      // At twice the size: at the photo's own, sample1's opening is 3-4 pixels high and a row's rounding decides.
      const face = await largestFace(name, 2);
      const opening = (landmarks: number[][]): Point[] => [...pick(landmarks, UPPER_INNER_LIP), ...pick(landmarks, LOWER_INNER_LIP).reverse()];
      const inside = (polygon: Point[], visit: (i: number) => void) => {
        const [xs, ys] = [polygon.map(([x]) => x), polygon.map(([, y]) => y)];
        for (let y = Math.floor(Math.min(...ys)); y <= Math.ceil(Math.max(...ys)); y++) {
          for (let x = Math.floor(Math.min(...xs)); x <= Math.ceil(Math.max(...xs)); x++) if (insidePolygon(polygon, x + 0.5, y + 0.5)) visit(y * face.width + x);
        }
      };
      inside(opening(face.landmarks), (i) => (face.planes.v[i] = 255));
      const turned = frontalise(face.planes, face.width, face.height, face.landmarks, meshTopology(engine.meshReference!()));
      expect(turned.turnDegrees).toBeGreaterThan(FRONTAL.minTurnDegrees);
      // The turned opening's middle: shrunk to 70 % about its centre (clear of the lips' blended edges).
      const turnedOpening = opening(turned.landmarks);
      const [cx, cy] = turnedOpening.reduce(([x, y], [px, py]) => [x + px / turnedOpening.length, y + py / turnedOpening.length], [0, 0]);
      let pixels = 0;
      let marked = 0;
      inside(turnedOpening.map(([x, y]): Point => [cx + 0.7 * (x - cx), cy + 0.7 * (y - cy)]), (i) => {
        pixels++;
        if (turned.planes.v[i]! > 250) marked++;
      });
      expect(pixels).toBeGreaterThan(100);
      expect(marked / pixels).toBeGreaterThan(0.9);
    }
  });

  it('fills the hidden side from the other in the hidden side’s own light', async () => {
    // sample4 and sample1: turned about a third of the way round, lit from the side they turn from, so the
    // far cheek, a third of the face taken from its mirror, is the darker one. Copied in the near side's
    // light, it came out nearly as bright as the near side (sample4: 134 against the photo's 94, the near
    // side 150): the next steps took that for the photo's own relief and kept it, pale wedges on one cheek.
    const mesh = meshTopology(engine.meshReference!());
    /** Mean luma of the triangles wholly on one side of the face (-1 the picture's left, 1 its right). */
    const sideLuma = (y: Float32Array, width: number, height: number, points: number[][], side: -1 | 1) => {
      let sum = 0;
      let count = 0;
      for (let t = 0; t < mesh.triangles.length / 3; t++) {
        const corners = [0, 1, 2].map((k) => mesh.triangles[3 * t + k]!);
        if (!corners.every((i) => mesh.side[i] === side)) continue;
        forEachPixelIn(points[corners[0]!]!, points[corners[1]!]!, points[corners[2]!]!, width, height, (x, row) => {
          sum += y[row * width + x]!;
          count++;
        });
      }
      return sum / count;
    };
    for (const name of ['sample4', 'sample1']) {
      const face = await largestFace(name);
      const turned = frontalise(face.planes, face.width, face.height, face.landmarks, mesh);
      expect(turned.mirroredShare).toBeGreaterThan(0.2);
      const photo = [-1, 1].map((side) => sideLuma(face.planes.y, face.width, face.height, face.landmarks, side as -1 | 1));
      const frontal = [-1, 1].map((side) => sideLuma(turned.planes.y, face.width, face.height, turned.landmarks, side as -1 | 1));
      const far = photo[0]! < photo[1]! ? 0 : 1;
      // The photo's sides differ by 39 and 56 levels; the far side keeps its light within 0.4 of that.
      expect(Math.abs(frontal[far]! - photo[far]!)).toBeLessThan(0.4 * Math.abs(photo[1]! - photo[0]!));
    }
  });

  it('takes each eye whole from one side: none of it mixes the photo’s own eye with the mirror’s', async () => {
    // sample2's far eye (shown 0.77 by the mesh points' shares), sample1's and sample4's (0.60): where a pixel
    // mixed the two sides by its share, sample2's far eye had two eyeliner wings, one a grey ghost down her
    // cheek. Every pixel of a triangle inside an eye's hull must be the photo's own pixel carried by the turn.
    const mesh = meshTopology(engine.meshReference!());
    for (const name of ['sample2', 'sample1', 'sample4']) {
      const face = await largestFace(name);
      const turned = frontalise(face.planes, face.width, face.height, face.landmarks, mesh);
      expect(turned.mirroredShare).toBeGreaterThan(0.1);
      for (const eye of EYE_CONTOURS) {
        const hull = grownHull(pick(turned.landmarks, eye), FRONTAL.featureReach.eye);
        let pixels = 0;
        let own = 0;
        for (let t = 0; t < mesh.triangles.length / 3; t++) {
          const corners = [0, 1, 2].map((k) => mesh.triangles[3 * t + k]!);
          if (!corners.every((i) => insidePolygon(hull, turned.landmarks[i]![0]!, turned.landmarks[i]![1]!))) continue;
          const [pa, pb, pc] = corners.map((i) => face.landmarks[i]!);
          forEachPixelIn(turned.landmarks[corners[0]!]!, turned.landmarks[corners[1]!]!, turned.landmarks[corners[2]!]!, face.width, face.height, (x, y, la, lb, lc) => {
            const photo = sampleBilinear(face.planes.y, face.width, face.height, la * pa![0]! + lb * pb![0]! + lc * pc![0]! - 0.5, la * pa![1]! + lb * pb![1]! + lc * pc![1]! - 0.5);
            pixels++;
            if (Math.abs(turned.planes.y[y * face.width + x]! - photo) < 0.5) own++;
          });
        }
        expect(pixels).toBeGreaterThan(150);
        expect(own / pixels).toBeGreaterThan(0.99);
      }
    }
  });

  it('leaves a face that already looks at the camera as it is', async () => {
    const face = await largestFace('sample5');
    const result = frontalise(face.planes, face.width, face.height, face.landmarks, meshTopology(engine.meshReference!()));
    expect(result.turnDegrees).toBeLessThan(FRONTAL.minTurnDegrees);
    expect(result.planes).toBe(face.planes);
    expect(result.mirroredShare).toBe(0);
  });
});
