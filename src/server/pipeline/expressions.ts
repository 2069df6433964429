// Which of the product's face expressions (FACE_EXPRESSIONS) one analysed face shows. Pure: it reads
// the engine's measures (head yaw, the expression model's `happy`, the mouth opening) against thresholds
// measured on real pictures (docs/decisions/008-face-engine.md).
import { FACE_EXPRESSIONS } from '../../shared/media-rules';
import type { AnalysedFace } from './face-engine';

export type FaceExpression = (typeof FACE_EXPRESSIONS)[number];

/** What the classifier reads from a face: a subset of `AnalysedFace`, so tests can pass plain numbers. */
export interface ExpressionEvidence {
  pose: Pick<AnalysedFace['pose'], 'yaw'>;
  expressions: Pick<AnalysedFace['expressions'], 'happy'>;
  mouthOpening: number;
}

export const EXPRESSION_THRESHOLDS = {
  /**
   * |yaw| in degrees (Human's estimate) from which a head is turned to one side. Human's yaw reads
   * about half the real angle: faces looking at the camera measure within ±13° (astronaut 0°, talking
   * clips ±4°), heads slightly turned while looking at the camera 15-19°, three-quarter views 20-25°,
   * a full profile 31-46° (the same face, depending on the crop). The product has no three-quarter
   * type: a three-quarter view counts as a profile, a slight turn does not.
   */
  profileYaw: 20,
  /**
   * The expression model's `happy` score from which a face smiles. Smiles in the sample photos score
   * 0.85-0.99 (the astronaut 0.99); faint or closed-lip smiles 0.57-0.72; neutral faces mostly below
   * 0.6, but a neutral talking clip wanders up to 0.9 on single frames: judge a clip by many frames.
   */
  smileHappy: 0.8,
  /**
   * Mouth opening (inner-lip gap / face height) from which the mouth is open as in speech. Closed lips
   * measure 0.001-0.035 (photos and clips), speech and "ah" 0.05-0.17 (talking-man clip). A smile
   * showing teeth also measures 0.045-0.09, which is why a smile is recognised before talking.
   */
  talkingMouthOpening: 0.05,
} as const;

const T = EXPRESSION_THRESHOLDS;
const facesCamera = (face: ExpressionEvidence) => Math.abs(face.pose.yaw) < T.profileYaw;

/**
 * Each expression's own test. Profiles follow the person's side (HeadPose: yaw > 0 = turned to their
 * left); smile and talking need a face turned towards the camera.
 */
const SHOWS: Record<Exclude<FaceExpression, 'neutral'>, (face: ExpressionEvidence) => boolean> = {
  'profile-left': (face) => face.pose.yaw >= T.profileYaw,
  'profile-right': (face) => face.pose.yaw <= -T.profileYaw,
  smile: (face) => facesCamera(face) && face.expressions.happy >= T.smileHappy,
  talking: (face) => facesCamera(face) && face.mouthOpening >= T.talkingMouthOpening,
};
/** Order of precedence: a turned head is a profile whatever the mouth does; an open smile is a smile. */
const PRECEDENCE = ['profile-left', 'profile-right', 'smile', 'talking'] as const;

/** The one expression this face shows best: the first test in PRECEDENCE that passes, else neutral. */
export function classifyExpression(face: ExpressionEvidence): FaceExpression {
  return PRECEDENCE.find((expression) => SHOWS[expression](face)) ?? 'neutral';
}

/**
 * Whether this face fits the type the parent declared for the clip. The declared type's own test, so a
 * smiling talker fits both 'smile' and 'talking'; 'neutral' fits only a face that shows nothing else.
 * Judged on one frame: a talking clip has closed-mouth frames too, so count the frames that fit.
 * An unknown declared type fits nothing.
 */
export function expressionAgrees(face: ExpressionEvidence, declared: string): boolean {
  if (!isFaceExpression(declared)) return false;
  return declared === 'neutral' ? classifyExpression(face) === 'neutral' : SHOWS[declared](face);
}

export function isFaceExpression(value: string): value is FaceExpression {
  return (FACE_EXPRESSIONS as readonly string[]).includes(value);
}
