// The voice-only processor (spec 02 §2, §5, §8): a parent's own video whose voice becomes a person's.
// Its rules and messages, shared by the page and POST /api/upload/voice-only-video.
import { z } from 'zod';
import { cleanText } from './validation';
import { FACE_VIDEO_TYPES, MEDIA_LIMITS } from './media-rules';
import { VIDEO_MESSAGES } from './video-rules';

export const VOICE_ONLY_MESSAGES = {
  invalidType: 'Invalid file type: Please select a video file',
  noPerson: 'No person selected',
  titleRequired: 'Title is required',
  voiceRequired: 'Voice recording required: This person has no voice recording yet. Record their voice first, then try again.',
  noSound: 'This video has no sound: Please choose a video with someone speaking in it.',
  tooLong: 'Videos can be at most 10 minutes long.',
  /** The render's error when the stored upload has gone. */
  sourceMissing: 'The uploaded video is missing on the server. Please upload it again.',
  submitted: 'Video submitted for processing',
} as const;

export const VOICE_ONLY_LIMITS = {
  /** The same size as every video upload. */
  maxBytes: MEDIA_LIMITS.videoMaxBytes,
  /** Longest video (seconds): the voice analysis reads at most 10 minutes of narration. */
  maxSeconds: 600,
} as const;

/** What the picker offers; the server decides by content (MP4, MOV, AVI or WebM with a picture and sound). */
export const VOICE_ONLY_VIDEO_TYPES = FACE_VIDEO_TYPES;

/** The text fields of the form (multipart, so the person id arrives as text). */
export const voiceOnlyFieldsSchema = z.object({
  personId: z
    .union([z.string(), z.number()], { error: VOICE_ONLY_MESSAGES.noPerson })
    .transform((value) => String(value).trim())
    .refine((text) => text !== '', { message: VOICE_ONLY_MESSAGES.noPerson, abort: true })
    .refine((text) => /^[1-9]\d{0,9}$/.test(text) && Number(text) <= 2_147_483_647, 'Invalid id')
    .transform(Number),
  title: cleanText(z.string({ error: VOICE_ONLY_MESSAGES.titleRequired }).trim(), 'Title')
    .min(1, VOICE_ONLY_MESSAGES.titleRequired)
    .min(3, VIDEO_MESSAGES.titleTooShort)
    .max(200, VIDEO_MESSAGES.titleTooLong),
});
export type VoiceOnlyFields = z.infer<typeof voiceOnlyFieldsSchema>;
