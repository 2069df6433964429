// Messages of face analysis (extraction from clips, photos checked on arrival), shown to parents.
export const FACE_ANALYSIS_MESSAGES = {
  noFaceInClip: 'No face found in this clip. Record again facing the camera in good light.',
  noFaceInPhoto: 'No face found in this photo. Use a clear, front-facing photo with good light.',
  clipMissing: 'The clip file is missing. Please record it again.',
  clipFailed: 'We could not process this clip. Please try again, or record it again.',
  voiceFailed: 'We could not analyse this recording. Please record it again.',
  voiceMissing: 'The recording file is missing. Please record it again.',
  tooManyWaiting: 'You have several recordings still being processed. Please wait for them to finish before adding more.',
  turnedAway: 'The face is turned to one side in this photo. It is kept, but a photo facing the camera gives a better video.',
  blurred: 'This photo looks blurred. It is kept, but a sharp photo gives a better video.',
  eyesClosed: 'The eyes look closed in this photo. It is kept, but a photo with open eyes gives a better video.',
  looksAside: 'The eyes look to one side in this photo. It is kept, but a photo looking straight at the camera gives a more natural video.',
  smallFace: 'The face is small in this photo. It is kept, but a closer photo gives a better video.',
  smallFaceInClip: 'The face is small in this clip. Its faces are kept, but a clip recorded closer to the camera gives a better video.',
} as const;

/**
 * A photo whose face is turned this far (Human's yaw, which reads about half the real turn: a
 * three-quarter view reads 20-25°) hides much of one side: accepted, with FACE_ANALYSIS_MESSAGES.turnedAway.
 */
export const TURNED_AWAY_YAW_DEGREES = 25;

/**
 * …or whose head is turned at least TURNED_AWAY_MIN_YAW_DEGREES and whose face, turned frontal for the video
 * (server/pipeline/render/frontal-face.ts), has at least this share taken from its other side because the
 * photo hides it: Human's yaw reads a turn that comes with a look down as less than it is. Measured on
 * face-api's demo photos (the largest face; share, yaw; with the mesh's depth in pixels since decision 014's
 * thirty-third part): sample1 0.27, 19° and sample4 0.29, 19° (turned about a third of the way: their videos
 * are the weakest, decision 014); sample2 0.18, 8° (tilted and looking down, not turned), sample6 0.17, 13°,
 * sample3 0.10, 11°, sample5 0, 4°; the portrait 0 (within 6° of frontal, left as it is); stills of both
 * talking clips 0-0.02, 0-3°; cut out of the group photos, sample5's second face 0.19, 15°, and the other two
 * women of sample1, in three-quarter view and tilted, 0.21, 12° and 0.04, 14°: not warned. The share also
 * counts what a look down foreshortens on both sides (sample2), so it does not stand alone.
 */
export const TURNED_AWAY_HIDDEN_SHARE = 0.25;
export const TURNED_AWAY_MIN_YAW_DEGREES = 15;

/**
 * Whether a face is turned so far that much of it is hidden (a warning, not a refusal), from its recorded
 * pose (`{ yaw }`, degrees) and, on photos, the share of it hidden (`hiddenShare`; rows from before the
 * measure and a clip's crops have none).
 */
export function isTurnedAway(pose: unknown, hiddenShare?: unknown): boolean {
  const yaw = (pose as { yaw?: unknown } | undefined)?.yaw;
  if (typeof yaw !== 'number') return false;
  const hidden = typeof hiddenShare === 'number' && hiddenShare >= TURNED_AWAY_HIDDEN_SHARE;
  return Math.abs(yaw) >= TURNED_AWAY_YAW_DEGREES || (hidden && Math.abs(yaw) >= TURNED_AWAY_MIN_YAW_DEGREES);
}

/**
 * A face whose detail ratio (pipeline/face-engine.ts `faceDetailRatio`) is under this looks blurred: kept,
 * with FACE_ANALYSIS_MESSAGES.blurred, and left out of the collection that lends the render its mouths
 * (jobs/render.ts). Measured: sharp faces 0.30 and up (face-api's demo photos 0.36–0.57, also shrunk to
 * 80 px; every frame of both talking clips 0.30–0.49, the woman's soft compressed video lowest); blurred
 * by 1.2 % of the face's width 0.16–0.19, by 1 % 0.18–0.23. The line sits nearer the blurred side: a
 * sharp face wrongly called blurred loses its expressions for the render, a slightly soft one kept costs
 * little.
 */
export const BLURRED_DETAIL_RATIO = 0.22;

/**
 * Whether a face's recorded detail ratio says it is blurred (a warning, not a refusal); rows from before the
 * measure have none. A small face (`box`: isSmallFace) is said as small instead: under the measure's own size
 * it reads blurred whatever its focus, and a closer photo is what puts either right.
 */
export function isBlurred(detailRatio: unknown, box?: unknown): boolean {
  return typeof detailRatio === 'number' && detailRatio < BLURRED_DETAIL_RATIO && !isSmallFace(box);
}

/**
 * A face whose box (the face detector's, in the photo's own pixels; it takes in the forehead, the ears and
 * some hair) is under this many pixels on its shorter side is small for the video: kept, with
 * FACE_ANALYSIS_MESSAGES.smallFace, and left out of the collection that lends the render its mouths and eyes
 * (jobs/render.ts), as a blurred one is. The render enlarges it onto a template's face (the talking woman's
 * box is 373 pixels in her 512-pixel frame, the talking man's 351 in 480: four times a face under this), and
 * a small face has no detail to enlarge: blurred, or mottled where the render sharpens it
 * (pipeline/render/face-sharpness.ts then sharpens its JPEG blocks). The blur measure cannot see it: a small
 * sharp face is sharp at its own size (BLURRED_DETAIL_RATIO). Measured on face-api's demo photos shrunk
 * (bench/render on talking-woman.mp4, decision 014's thirty-seventh part): sample3 at 60 and 81 pixels
 * mottled, eyes smeared; at 101 and 121 as at full size but softer; faces of sample5's and sample6's group
 * photos at 58 and 67 pixels smeared and crusted, at 96 and 117 rough but whole. The tests' ordinary photos
 * are larger (the portrait at 320 pixels square: 93). A face under the blur measure's own size reads blurred
 * as well (the portrait with its face at 52 and 62 pixels: detail ratio 0.14 and 0.18; at 79 pixels 0.41):
 * it is said as small, not blurred (features/faces/service.ts, jobs/render.ts). A clip's crops record their
 * face's box in the clip's own pixels (pipeline/face-extraction.ts cropFace): a face filmed from across the
 * room, or by a small camera, is small there too, though face extraction enlarges its frames to find it.
 */
export const SMALL_FACE_PIXELS = 90;

/** Whether a face's recorded box (`[x, y, width, height]`, the photo's or the crop's pixels) says it is small; rows without one (older rows) are not. */
export function isSmallFace(box: unknown): boolean {
  if (!Array.isArray(box) || box.length !== 4) return false;
  const [, , width, height] = box as unknown[];
  return typeof width === 'number' && typeof height === 'number' && Math.min(width, height) < SMALL_FACE_PIXELS;
}

/**
 * A face whose eye opening (pipeline/face-engine.ts `AnalysedFace.eyeOpening`: the gap between the lids the
 * iris model drew, over the eye's width, both eyes averaged) is at most this has its eyes shut or nearly:
 * kept, with FACE_ANALYSIS_MESSAGES.eyesClosed; a clip's crop is taken from a frame with open eyes when the
 * clip has one (face-extraction.ts). Measured: open eyes 0.28–0.51 (face-api's demo photos 0.36–0.42, every
 * frame of the talking man 0.28–0.35, his eyes narrow, the talking woman's open frames 0.31–0.51); shut
 * 0.06–0.09 (sample2, the woman's blinks), half shut 0.12–0.21 (the woman singing with her eyes closing).
 * Only when Human's iris model refined both eyes' lids does a shut eye read this low: on a face turned far
 * to one side Human refines only the nearer eye, and the other, drawn by the mesh alone, reads a shut eye
 * at 0.15–0.26 (a missed warning at worst, never a false one from that).
 */
export const EYES_CLOSED_OPENING = 0.15;

/** Whether a face's recorded eye opening says its eyes are shut (a warning, not a refusal); rows from before the measure have none. */
export function isEyesClosed(eyeOpening: unknown): boolean {
  return typeof eyeOpening === 'number' && eyeOpening <= EYES_CLOSED_OPENING;
}

/**
 * Said on the Create and face training pages (issue 15): the render uses the person's whole collection
 * (jobs/render.ts collectionOf, render/face-choice.ts), led by the chosen image.
 */
export const moreExpressionsHint = (name: string) =>
  `More expressions make a more natural video: ${name}'s smiles and open mouths are used where the actor smiles or speaks.`;

/** Two faces whose faceres embeddings' cosine is at least this show the same person (jobs/render.ts has the measurements). */
export const SAME_PERSON_COSINE = 0.6;

/**
 * Eyes whose iris sits further than this from the middle of the eye (pipeline/render/eye-blink.ts
 * `eyeGaze`: across the face, in eye widths) look to one side: the video's eyes would look past the viewer
 * all along. A clip's crop is taken from a frame that looks ahead when the clip has one (face-extraction.ts);
 * the render borrows eyes that look ahead from another image of the person (face-choice.ts eyeLender), or
 * says so with the video (RENDER_NOTICES.chosenLooksAside); a photo is marked on arrival
 * (FACE_ANALYSIS_MESSAGES.looksAside, read on its face turned frontal: render/person-face.ts photoFacing). Measured
 * on the face turned frontal as the render pastes it (loadPersonFace, on talking-woman.mp4: every 27th frame and the crops face training takes): at
 * the camera −0.08 to 0.05 (17 images), glancing aside −0.21 to −0.19 and 0.21 (6); face-api's demo photos
 * −0.11 to 0.10, but sample1 0.16 (her head turned, her eyes on the camera: turned frontal, her eyes look
 * aside; 0.14 while her far eye was mixed with the mirror's, before decision 014's twenty-fifth part) and
 * sample2 0.16 with her eyes shut (shut eyes are not said to look aside: faces service `looksAside`). Only on the mesh's own lids: on the lids Human's iris model redraws (the rest of the photo's
 * analysis, face-engine.ts `analyse`), a frame glancing aside read −0.07 and one at the camera −0.14.
 */
export const GAZE_ASIDE = 0.15;

/** Whether eyes whose gaze (eyeGaze) is this look to one side; a gaze not measured (shut eyes, a crop from before the measure) does not. */
export function isLookingAside(gaze: unknown): boolean {
  return typeof gaze === 'number' && Math.abs(gaze) > GAZE_ASIDE;
}
