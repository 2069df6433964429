// What the face training guide asks for at each of the five expressions (order from FACE_EXPRESSIONS).
import { FACE_EXPRESSIONS } from '@shared/media-rules';

export type FaceExpression = (typeof FACE_EXPRESSIONS)[number];

export const EXPRESSION_GUIDE: Record<FaceExpression, { title: string; instructions: string }> = {
  neutral: {
    title: 'Neutral Expression',
    instructions: 'Look straight into the camera with a relaxed face. Keep still and breathe normally.',
  },
  smile: {
    title: 'Happy Smile',
    instructions: 'Give the camera a big, natural smile, as if your child just ran in to hug you.',
  },
  'profile-left': {
    title: 'Left Profile',
    instructions: 'Slowly turn your head to the left until you see the side of the room, then slowly come back.',
  },
  'profile-right': {
    title: 'Right Profile',
    instructions: 'Slowly turn your head to the right, hold for a moment, then slowly turn back to the camera.',
  },
  talking: {
    title: 'Talking',
    instructions: 'Look at the camera and talk naturally: say hello, count to five, or tell a tiny story.',
  },
};

export function expressionTitle(type: string | null | undefined): string {
  return (FACE_EXPRESSIONS as readonly string[]).includes(type ?? '') ? EXPRESSION_GUIDE[type as FaceExpression].title : type || 'unknown';
}
