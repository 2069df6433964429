// People, face and voice rules and messages (spec 01 §5, §8, §9), shared by the forms and the routes.
import { z } from 'zod';

export const MEDIA_MESSAGES = {
  personNameTooShort: 'Name must be at least 2 characters',
  personNameTooLong: 'Name must be at most 100 characters',
  relationshipTooShort: 'Relationship must be at least 2 characters',
  relationshipTooLong: 'Relationship must be at most 50 characters',
  invalidImageType: 'Invalid file type: Please upload an image file.',
  imageTooLarge: 'File too large: Please upload an image smaller than 5MB.',
  invalidVideoType: 'Please upload a valid video file (MP4, MOV, AVI, WebM)',
  videoTooLarge: 'Maximum file size is 100MB',
  noVideoSelected: 'No video selected',
  noRecording: 'No recording to save',
  recordingTooShort: 'Recording too short: Please record at least 5 seconds of audio',
  recordingTooLong: 'Recording too long: Please keep recordings to 30 seconds or less',
  invalidAudioType: 'Invalid file type: Please record or upload an audio file.',
  notBase64: 'The file data is not a valid base64 data URL',
  emptyFile: 'The file is empty',
  unreadableMedia: 'The file could not be read as media. It may be damaged or incomplete.',
  personNotFound: 'Person not found',
} as const;

export const MEDIA_LIMITS = {
  imageMaxBytes: 5 * 1024 * 1024,
  videoMaxBytes: 100 * 1024 * 1024,
  /** A recording of 30 s in any browser codec stays far below this. */
  audioMaxBytes: 10 * 1024 * 1024,
  voiceMinSeconds: 5,
  voiceMaxSeconds: 30,
  faceClipSeconds: 10,
  faceTrainingTickMs: 500,
  faceCollectionPreview: 4,
  cameraIdeal: { width: 1280, height: 720 },
  cameraJpegQuality: 0.95,
} as const;

/** Expression types of the face training guide, in order. */
export const FACE_EXPRESSIONS = ['neutral', 'smile', 'profile-left', 'profile-right', 'talking'] as const;
/** Step types of the voice training wizard, in order. */
export const VOICE_STEP_TYPES = ['casual', 'instructional', 'question', 'storytelling', 'happy'] as const;

const text = (label: string, min: number, max: number, tooShort: string, tooLong: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be text`) })
    .trim()
    .min(min, tooShort)
    .max(max, tooLong);

export const personSchema = z.object({
  name: text('Name', 2, 100, MEDIA_MESSAGES.personNameTooShort, MEDIA_MESSAGES.personNameTooLong),
  relationship: text('Relationship', 2, 50, MEDIA_MESSAGES.relationshipTooShort, MEDIA_MESSAGES.relationshipTooLong),
});
export type PersonInput = z.infer<typeof personSchema>;

export const mediaNameSchema = text('Name', 1, 200, 'Name is required', 'Name must be at most 200 characters');
