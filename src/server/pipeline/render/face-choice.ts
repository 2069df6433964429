// Which of the person's images to show in each frame (issue 15: the person's collection drives the
// render). The parent's chosen image is the anchor; the others (their photos and the crops face
// training took from their clips, checked to be the same person: jobs/render.ts) each have a mouth: closed,
// smiling, open. Each frame the anchor gives the face, and the image whose mouth is nearest to what the
// actor's mouth does (opened by how much, widened by how much) lends its mouth and jaw, so a laugh shows
// the person's own laugh, teeth and all; the mouth warp (mouth-motion.ts) opens or closes it the rest of the way. Only
// the mouth: crops from clips look elsewhere, blink and squint, and eyes that jump between images were
// the first thing seen on the review sheet (talking-man:woman-clip). A switch cross-fades over a few frames,
// and an image must be clearly better before it replaces the one shown, so nothing flickers.
import { mouthOpening } from '../face-engine';
import { isLookingAside } from '../../../shared/face-analysis';
import { GAZE } from './eye-blink';
import { LEFT_EYE_CORNERS, MOUTH_CORNERS, RIGHT_EYE_CORNERS } from './landmarks';
import { MOUTH } from './mouth-motion';

export const CHOICE = {
  /** How far apart two looks are: opening in shares of face height, width as a ratio, each over this scale. */
  openingScale: 0.03,
  widthScale: 0.08,
  /**
   * A mouth more open than the actor's is closed by the warp only by lifting the lower lip over what was
   * between the lips, which a mouth of the right opening shows as it is: such a mismatch counts this much more.
   */
  tooOpenWeight: 4,
  /** Another image replaces the shown one only when its distance is lower by this. */
  hysteresis: 0.6,
  /** Frames a switch takes to cross-fade. */
  fadeFrames: 6,
  /** The actor's resting mouth width follows slowly (share of each near-closed frame mixed in). */
  restSmoothing: 0.05,
} as const;

/** What a mouth does: its opening (share of face height) and its width (share of the distance between the eyes). */
export interface MouthLook {
  opening: number;
  width: number;
}

const distance = (p: number[], q: number[]) => Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!);

export function mouthLook(landmarks: number[][]): MouthLook {
  const eyes = distance(
    [(landmarks[LEFT_EYE_CORNERS[0]]![0]! + landmarks[LEFT_EYE_CORNERS[1]]![0]!) / 2, (landmarks[LEFT_EYE_CORNERS[0]]![1]! + landmarks[LEFT_EYE_CORNERS[1]]![1]!) / 2],
    [(landmarks[RIGHT_EYE_CORNERS[0]]![0]! + landmarks[RIGHT_EYE_CORNERS[1]]![0]!) / 2, (landmarks[RIGHT_EYE_CORNERS[0]]![1]! + landmarks[RIGHT_EYE_CORNERS[1]]![1]!) / 2],
  );
  return { opening: mouthOpening(landmarks), width: distance(landmarks[MOUTH_CORNERS[0]]!, landmarks[MOUTH_CORNERS[1]]!) / Math.max(1, eyes) };
}

export interface FaceChoice {
  /** Sets this frame's choice from the actor's mesh. */
  update(actorLandmarks: number[][]): void;
  /** The images whose mouth shows in this frame, each with its weight (one, or two adding up to 1 while cross-fading). */
  readonly shown: readonly { index: number; opacity: number }[];
  /** How many frames each image was the main one. */
  readonly framesShown: number[];
}

/**
 * Chooses among the person's images (index 0: the anchor) by their mouths' looks. The person's own
 * rest is the anchor's look; the actor's is the smallest opening seen and its width when nearly closed.
 */
export function createFaceChoice(looks: MouthLook[], mouthGain: number): FaceChoice {
  const anchor = looks[0]!;
  const restLook = Math.min(anchor.opening, MOUTH.closedOpening);
  let current = 0;
  let previous = 0;
  let fade: number = CHOICE.fadeFrames;
  let restOpening = Infinity;
  let restWidth = 0;
  const framesShown = looks.map(() => 0);
  let shown: { index: number; opacity: number }[] = [{ index: 0, opacity: 1 }];

  const distanceTo = (look: MouthLook, target: MouthLook) => {
    const open = (look.opening - target.opening) / CHOICE.openingScale;
    const wide = (look.width - target.width) / CHOICE.widthScale;
    return (open > 0 ? CHOICE.tooOpenWeight : 1) * open * open + wide * wide;
  };

  return {
    get shown() {
      return shown;
    },
    framesShown,
    update(actorLandmarks) {
      const actor = mouthLook(actorLandmarks);
      restOpening = Math.min(restOpening, actor.opening);
      if (restWidth === 0) restWidth = actor.width;
      if (actor.opening - restOpening < 0.01) restWidth += CHOICE.restSmoothing * (actor.width - restWidth);
      // What the person's mouth should do: the actor's opening above rest (as the warp gives it) from lips
      // that meet (the warp closes an anchor's parted lips at the actor's rest, so an image whose lips meet
      // is the better match there), and the actor's widening applied to the anchor's width.
      const target = { opening: restLook + (actor.opening - restOpening) * mouthGain, width: anchor.width * (actor.width / restWidth) };
      let best = current;
      let bestDistance = Infinity;
      looks.forEach((look, i) => {
        const d = distanceTo(look, target);
        if (i !== current && d < bestDistance) {
          best = i;
          bestDistance = d;
        }
      });
      if (best !== current && bestDistance < distanceTo(looks[current]!, target) - CHOICE.hysteresis) {
        previous = current;
        current = best;
        fade = 0;
      }
      if (fade < CHOICE.fadeFrames) fade++;
      const t = fade / CHOICE.fadeFrames;
      const eased = t * t * (3 - 2 * t);
      shown = t >= 1 ? [{ index: current, opacity: 1 }] : [{ index: previous, opacity: 1 - eased }, { index: current, opacity: eased }];
      framesShown[current]!++;
    },
  };
}

/**
 * The image that lends its eyes when the anchor's are shut (a blink caught in the chosen photo) or look
 * aside (a crop from a clip taken as she glanced away: the whole video would look past the viewer, where the
 * actor looks at the camera). Of the others whose eyes are open and look ahead (eye-blink.ts GAZE), the one
 * whose opening is the middle one (a usual look, not a stare or a squint); shut eyes take open ones that
 * look aside when no image looks ahead. The same image in every frame, so the eyes never jump; undefined
 * when the anchor's eyes are fine or no other image has better ones. Its eyes are pasted over the anchor's,
 * following the actor's as the anchor's would (eye-blink.ts).
 */
export function eyeLender(images: readonly { eyesShut: boolean; eyeOpening: number | undefined; gaze: number | undefined; glasses?: boolean }[]): number | undefined {
  const anchor = images[0];
  if (!anchor || !(anchor.eyesShut || isLookingAside(anchor.gaze))) return undefined;
  // Only an image with glasses lends to one with glasses, and one without to one without: pasted round the
  // eyes, the other's would cut the anchor's frames or leave pieces of its own (person-face.ts keeps them).
  const open = images
    .map((image, index) => ({ index, opening: image.eyeOpening ?? 0, gaze: image.gaze, shut: image.eyesShut || image.eyeOpening === undefined, glasses: image.glasses ?? false }))
    .filter((image) => image.index > 0 && !image.shut && image.glasses === (anchor.glasses ?? false));
  const ahead = open.filter((image) => image.gaze !== undefined && Math.abs(image.gaze) < GAZE.aheadBelow);
  const choice = (ahead.length > 0 || !anchor.eyesShut ? ahead : open).sort((a, b) => a.opening - b.opening);
  return choice.length > 0 ? choice[Math.floor((choice.length - 1) / 2)]!.index : undefined;
}
