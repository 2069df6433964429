// Face extraction from a face training clip: sample frames, find the face, keep the best few crops
// (sharp, large, posed as the clip asks: frontal for neutral/smile/talking, turned the right way for the
// profiles), drop near-duplicates by embedding, and label each with an expression. Runs in a pipeline
// worker thread; knows nothing of the database (jobs/face-extraction.ts stores the result).
import sharp from 'sharp';
import { isBlurred, isEyesClosed, isLookingAside } from '../../shared/face-analysis';
import { MEDIA_LIMITS } from '../../shared/media-rules';
import { type DecodedFrame, FrameDecodeError, readFrames } from '../media/frames';
import { classifyExpression, EXPRESSION_THRESHOLDS, expressionAgrees, type FaceExpression, isFaceExpression } from './expressions';
import { type AnalysedFace, type DetectedFace, type FaceEngine, type Frame, cosineSimilarity, faceSharpness, lumaAt } from './face-engine';
import { eyeGaze } from './render/eye-blink';

export const EXTRACTION = {
  /** Frames are scaled into this square (faces in a selfie clip are large; Human pads to a square anyway). */
  frameSize: 960,
  /** Sampling: about this many frames over the clip, at most `maxFps` a second. */
  targetFrames: 30,
  maxFps: 4,
  /** Face videos are at most 60 s (media rules); never decode more. */
  maxSeconds: MEDIA_LIMITS.faceVideoMaxSeconds + 1,
  timeoutMs: 120_000,
  /** Frames kept for the slow analysis (embedding, expression), the best by the cheap score. */
  candidates: 8,
  /** Crops stored per clip. */
  maxCrops: 5,
  /**
   * Two crops whose embeddings are closer than this are the same picture for the renderer's purposes.
   * Frames of one still clip measure 0.99+; a head that turned or a mouth that opened 0.90-0.97.
   */
  duplicateCosine: 0.975,
  /** |yaw| under which a face counts as frontal (a default face must be). */
  frontalYaw: 15,
  /** Faces smaller than this share of the frame side are too small to be worth a crop. */
  minFaceShare: 0.08,
  /** The crop: the face box grown by this much on each side (hair, jaw and outline carry identity). */
  cropMargin: 0.45,
  cropMaxSide: 512,
  jpegQuality: 90,
} as const;

/** Why a clip gave nothing, in words for the parent (the job stores it as the clip's error). */
export class ClipProblem extends Error {
  // Checked by name: the error crosses a worker thread, which keeps the name and message, not the class.
  override name = 'ClipProblem';
}

export interface FaceAnalysisRecord {
  /** Seconds into the clip. */
  time: number;
  score: number;
  pose: { yaw: number; pitch: number; roll: number };
  sharpness: number;
  /** face-engine.ts `faceDetailRatio`: under BLURRED_DETAIL_RATIO the face looks blurred. */
  detailRatio: number;
  /** face-engine.ts `AnalysedFace.eyeOpening`: at most EYES_CLOSED_OPENING the eyes look shut. */
  eyeOpening: number;
  /** render/eye-blink.ts `eyeGaze` on the mesh's own lids: beyond GAZE_ASIDE the eyes look to one side; absent when not measurable. */
  gaze?: number;
  /**
   * render/frontal-face.ts `mirroredShare` of the face turned frontal: from TURNED_AWAY_HIDDEN_SHARE on, the
   * face is turned away. Only photos have it (render/person-face.ts photoFacing): a clip's crops are posed.
   */
  hiddenShare?: number;
  mouthOpening: number;
  /**
   * The face's box `[x, y, width, height]` and the picture's `[width, height]`, both in the crop's pixels
   * (which are the clip's own: cropFace), as a photo's analysis records them in its: the small-face check
   * (shared/face-analysis.ts isSmallFace) and the thumbnail's framing read them. Crops from before have none.
   */
  box?: [number, number, number, number];
  imageSize?: [number, number];
  expressions: AnalysedFace['expressions'];
  /** What the classifier saw, whatever the clip declared. */
  classified: FaceExpression;
}

export interface ExtractedFace {
  jpeg: Uint8Array;
  embedding: number[];
  expressionType: string;
  frontal: boolean;
  analysis: FaceAnalysisRecord;
}

interface Candidate {
  frame: DecodedFrame;
  time: number;
  face: DetectedFace;
  quality: number;
}

/**
 * Where the candidate's eyes look (render/eye-blink.ts eyeGaze), on the cheap pass's mesh: the analysis'
 * mesh has its lids redrawn by the iris model, on which the gaze reads wrong (shared/face-analysis.ts GAZE_ASIDE).
 */
function gazeOf(candidate: Candidate): number | undefined {
  const { frame, face } = candidate;
  return face.landmarks && eyeGaze(lumaAt(frame), frame.width, frame.height, face.landmarks);
}

/** How well a detected face suits the clip's declared expression: size × sharpness × pose fit. */
function cheapQuality(frame: Frame, face: DetectedFace, declared: string): number {
  const [, , w, h] = face.box;
  const size = Math.sqrt(w * h) / frame.width;
  const sharpness = faceSharpness(frame, face.box);
  const yaw = face.pose?.yaw ?? 0;
  const profile = declared === 'profile-left' ? yaw : declared === 'profile-right' ? -yaw : undefined;
  // Profiles want the head turned the declared way (the more the better, up to a clear profile); the
  // rest want it frontal.
  const poseFit =
    profile === undefined
      ? Math.max(0.05, 1 - Math.abs(yaw) / 45)
      : Math.max(0.05, Math.min(1, profile / EXPRESSION_THRESHOLDS.profileYaw));
  // A talking clip wants the mouth open: the mesh tells that already (a smile needs the slow pass).
  const mouthFit = declared === 'talking' && (face.mouthOpening ?? 0) < EXPRESSION_THRESHOLDS.talkingMouthOpening ? 0.5 : 1;
  return size * Math.log1p(sharpness) * poseFit * mouthFit * face.score;
}

/** The largest face of a frame (a clip is of one person; others passing behind are smaller). */
export function largestFace<T extends DetectedFace>(faces: T[]): T | undefined {
  return faces.reduce<T | undefined>((best, face) => (!best || face.box[2] * face.box[3] > best.box[2] * best.box[3] ? face : best), undefined);
}

export async function extractFaces(
  engine: FaceEngine,
  input: { file: string; declaredExpression: string; durationSeconds?: number },
  signal?: AbortSignal,
): Promise<ExtractedFace[]> {
  const duration = Math.min(input.durationSeconds ?? 10, EXTRACTION.maxSeconds);
  const fps = Math.min(EXTRACTION.maxFps, Math.max(0.5, EXTRACTION.targetFrames / Math.max(duration, 1)));
  const declared = input.declaredExpression;

  // 1. Cheap pass: detector + mesh on every sampled frame; keep the best few frames in memory.
  let candidates: Candidate[] = [];
  try {
    for await (const frame of readFrames(input.file, { fps, size: EXTRACTION.frameSize, maxSeconds: EXTRACTION.maxSeconds, timeoutMs: EXTRACTION.timeoutMs, signal })) {
      const face = largestFace(await engine.detect(frame, { mesh: true }));
      if (!face || face.box[2] < EXTRACTION.minFaceShare * frame.width) continue;
      candidates.push({ frame, time: frame.time, face, quality: cheapQuality(frame, face, declared) });
      candidates.sort((a, b) => b.quality - a.quality);
      candidates = candidates.slice(0, EXTRACTION.candidates);
    }
  } catch (error) {
    if (error instanceof FrameDecodeError) throw new ClipProblem('The clip could not be read as video. It may be damaged or incomplete. Please record it again.');
    throw error;
  }

  // 2. Slow pass on the candidates: identity, expression, sharpness of the real crop.
  const analysed: { candidate: Candidate; face: AnalysedFace; gaze: number | undefined }[] = [];
  for (const candidate of candidates) {
    signal?.throwIfAborted();
    const face = largestFace(await engine.analyse(candidate.frame));
    if (face) analysed.push({ candidate, face, gaze: gazeOf(candidate) });
  }

  // 3. Faces that show what the clip declared first, then by quality; no near-duplicates. Blurred faces
  // (a head moving fast, the camera refocusing) only when the clip has nothing sharper: the render would
  // leave them out (jobs/render.ts), and the People page would mark them. Likewise a blink caught in a
  // frame: shut eyes only when the clip has no sharp face with open ones. Eyes glancing aside come after
  // those that look ahead with the same fit (a crop chosen for a video gives it its eyes), but still come:
  // they lend mouths.
  const fits = (face: AnalysedFace) => isFaceExpression(declared) && expressionAgrees(face, declared);
  const ahead = (entry: (typeof analysed)[number]) => !isLookingAside(entry.gaze);
  analysed.sort((a, b) => Number(fits(b.face)) - Number(fits(a.face)) || Number(ahead(b)) - Number(ahead(a)) || b.candidate.quality - a.candidate.quality);
  const sharpFaces = analysed.filter((entry) => !isBlurred(entry.face.detailRatio));
  const openEyed = sharpFaces.filter((entry) => !isEyesClosed(entry.face.eyeOpening));
  const kept: typeof analysed = [];
  for (const entry of openEyed.length > 0 ? openEyed : sharpFaces.length > 0 ? sharpFaces : analysed) {
    if (kept.length >= EXTRACTION.maxCrops) break;
    if (kept.some((other) => cosineSimilarity(other.face.embedding, entry.face.embedding) >= EXTRACTION.duplicateCosine)) continue;
    kept.push(entry);
  }

  const results: ExtractedFace[] = [];
  for (const { candidate, face, gaze } of kept) {
    const classified = classifyExpression(face);
    const expressionType = fits(face) ? declared : classified;
    const crop = await cropFace(candidate.frame, face.box);
    results.push({
      jpeg: crop.jpeg,
      embedding: face.embedding,
      expressionType,
      frontal: Math.abs(face.pose.yaw) < EXTRACTION.frontalYaw,
      analysis: {
        time: Math.round(candidate.time * 100) / 100,
        score: face.score,
        pose: face.pose,
        sharpness: face.sharpness,
        detailRatio: face.detailRatio,
        eyeOpening: face.eyeOpening,
        ...(gaze === undefined ? {} : { gaze }),
        mouthOpening: face.mouthOpening,
        box: crop.box,
        imageSize: crop.size,
        expressions: face.expressions,
        classified,
      },
    });
  }
  return results;
}

export interface FaceCrop {
  jpeg: Uint8Array;
  /** The face's box in the crop's pixels. */
  box: [number, number, number, number];
  /** The crop's width and height. */
  size: [number, number];
}

/**
 * The face with a margin around it (hair, jaw, outline), square where the clip's picture allows (never into
 * the frame's padding: a phone clip filmed upright is narrower than its frame), as a JPEG, at most
 * EXTRACTION.cropMaxSide and never finer than the clip itself (`frame.videoPixelsPerPixel`): a frame enlarged
 * from a small clip is cut back to the clip's own pixels, so the face's box counts the detail the clip really
 * holds (a face 60 pixels high in a 480-pixel clip is small, though 120 in the frame).
 */
export async function cropFace(frame: DecodedFrame, box: [number, number, number, number]): Promise<FaceCrop> {
  const [x, y, w, h] = box;
  const side = Math.max(w, h) * (1 + 2 * EXTRACTION.cropMargin);
  const cx = x + w / 2;
  const cy = y + h / 2;
  const left = Math.max(0, Math.round(cx - side / 2));
  const top = Math.max(0, Math.round(cy - side / 2));
  const width = Math.max(1, Math.min(frame.picture.width - left, Math.round(side)));
  const height = Math.max(1, Math.min(frame.picture.height - top, Math.round(side)));
  const scale = Math.min(1, frame.videoPixelsPerPixel, EXTRACTION.cropMaxSide / Math.max(width, height));
  const size: [number, number] = [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
  const channels = frame.data.length / (frame.width * frame.height);
  const jpeg = await sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: channels as 3 | 4 } })
    .extract({ left, top, width, height })
    .resize({ width: size[0], height: size[1], fit: 'fill' })
    .jpeg({ quality: EXTRACTION.jpegQuality })
    .toBuffer();
  const scaled = (value: number) => Math.round(value * scale * 10) / 10;
  return { jpeg, box: [scaled(x - left), scaled(y - top), scaled(w), scaled(h)], size };
}
