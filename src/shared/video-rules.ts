// Creating a personalised video (spec 02 §5, §8): the form's rules and messages, shared by the form and
// the route.
import { z } from 'zod';
import { cleanText } from './validation';

export const VIDEO_MESSAGES = {
  titleTooShort: 'Title must be at least 3 characters',
  titleTooLong: 'Title must be at most 200 characters',
  noTemplate: 'No template selected or user not logged in',
  templateNotFound: 'Template not found',
  faceRequired: 'Face image required: Please capture or select a face image for face swapping',
  voiceRequired: 'Voice recording required: Please record or select a voice recording for voice swapping',
  nothingToDo: 'Choose a face or a voice to put in the video.',
  videoNotFound: 'Video not found',
  voiceOnlyTemplate: 'This template only personalises the voice: turn off the face swap.',
  // Render failures, in words a parent understands (the row's `error`).
  templateMissing: 'The template video is missing on the server. Please choose another template.',
  renderFailed: 'Something went wrong while making your video. Please try again.',
  // Trying a failed video again.
  onlyFailedRetry: 'Only a video that failed can be tried again.',
  voiceOnlyRetry: 'This video changes the voice only. To change the face too, make a new video.',
  samePersonRetry: 'Choose a face or a recording of the same person, or make a new video.',
} as const;

/**
 * What a finished video's page tells the parent about how it was made (issue 15: a collection that mixes two
 * people is noticed, only the chosen face's images are used, and the parent is told). Each says how many of
 * the person's face images were left out and why, so the parent can delete a sibling's clip or a blurred photo.
 */
export const RENDER_NOTICES = {
  otherFace: (count: number, name: string) =>
    `${count} of ${name}'s face images ${count === 1 ? 'shows' : 'show'} someone else, so ${count === 1 ? 'it was' : 'they were'} left out of this video.`,
  blurred: (count: number, name: string) =>
    `${count} of ${name}'s face images ${count === 1 ? 'looks' : 'look'} blurred, so ${count === 1 ? 'it was' : 'they were'} left out of this video.`,
  smallFace: (count: number, name: string) =>
    `${count} of ${name}'s face images ${count === 1 ? 'shows' : 'show'} the face too small, so ${count === 1 ? 'it was' : 'they were'} left out of this video.`,
  // The chosen image itself is used whatever it is (the parent chose it); its warnings on arrival, again
  // where the parent sees what they cost.
  chosenTurnedAway: (image: string) => `The face in "${image}" is turned to one side: a photo facing the camera gives a more natural video.`,
  chosenBlurred: (image: string) => `"${image}" looks blurred: a sharp photo gives a more natural video.`,
  chosenEyesClosed: (image: string) => `The eyes look closed in "${image}": a photo with open eyes gives a more natural video.`,
  chosenSmallFace: (image: string) => `The face in "${image}" is small: a closer photo gives a more natural video.`,
  // With the video, from the render's reading on the face as it pastes it (jobs/render.ts videoNotices); on the
  // Create page, from the photo's mark on arrival (chosenImageNotices).
  chosenLooksAside: (image: string) => `The eyes look to one side in "${image}": a photo looking straight at the camera gives a more natural video.`,
} as const;

/**
 * The chosen image's own warnings, as the video's note says them (RENDER_NOTICES.chosen*), and as the
 * Create page says them under the chosen photo before the video is made. The video's note leaves out shut
 * eyes when the render borrowed open ones from another image of the person (jobs/render.ts videoNotices):
 * only the render knows, as only it finds which images show the same face with open eyes. Eyes that look
 * aside (`looksAside`, the photo's mark on arrival) are said on the Create page alone: the video's note says
 * them from the render's own reading, when no other image lent eyes that look ahead (videoNotices).
 */
export function chosenImageNotices(image: { name: string; turnedAway: boolean; blurred: boolean; smallFace: boolean; eyesClosed: boolean; looksAside?: boolean }): string[] {
  return [
    ...(image.turnedAway ? [RENDER_NOTICES.chosenTurnedAway(image.name)] : []),
    ...(image.blurred ? [RENDER_NOTICES.chosenBlurred(image.name)] : []),
    ...(image.smallFace ? [RENDER_NOTICES.chosenSmallFace(image.name)] : []),
    ...(image.eyesClosed ? [RENDER_NOTICES.chosenEyesClosed(image.name)] : []),
    ...(image.looksAside ? [RENDER_NOTICES.chosenLooksAside(image.name)] : []),
  ];
}

/** A render's photo whose file is gone, named so the parent knows which one to replace. */
export function faceMissingMessage(name: string | undefined): string {
  return `The photo ${name ? `"${name}" ` : ''}is no longer available. Choose another photo and try again.`;
}

/** A render's recording whose file is gone, named so the parent knows which one to replace. */
export function voiceMissingMessage(name: string | undefined): string {
  return `The recording ${name ? `"${name}" ` : ''}is no longer available. Choose another recording and try again.`;
}

/** The Free plan's refusal: the limit, what counts, and the way out. */
export function monthlyLimitMessage(planName: string, videosPerMonth: number): string {
  return `Your ${planName} plan allows ${videosPerMonth} videos a month, and this month's are made (videos that failed do not count). Upgrade for unlimited videos.`;
}

const id = z.number({ error: 'Invalid id' }).int('Invalid id').positive('Invalid id');

export const createProcessedVideoSchema = z.object({
  templateId: id.optional(),
  userId: id.nullish(),
  personId: id.nullish(),
  title: cleanText(z.string({ error: VIDEO_MESSAGES.titleTooShort }).trim(), 'Title').min(3, VIDEO_MESSAGES.titleTooShort).max(200, VIDEO_MESSAGES.titleTooLong),
  description: cleanText(z.string().trim(), 'Description', { multiline: true }).max(2000, 'Description must be at most 2000 characters').nullish(),
  faceImageId: id.nullish(),
  voiceRecordingId: id.nullish(),
  useFaceSwap: z.boolean().default(true),
  useVoiceSwap: z.boolean().default(true),
});
export type CreateProcessedVideoInput = z.infer<typeof createProcessedVideoSchema>;

/** POST /api/processedVideos/:id/retry: the same choices, or another face or recording of the same person. */
export const retryProcessedVideoSchema = z.strictObject(
  { faceImageId: id.nullish(), voiceRecordingId: id.nullish() },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Only faceImageId and voiceRecordingId can be changed' : undefined) },
);
export type RetryProcessedVideoInput = z.infer<typeof retryProcessedVideoSchema>;

/** The spec's cost formula read as seconds (decisions page), before the server has measured throughput. */
export function estimatedProcessingSeconds(durationSeconds: number, face: boolean, voice: boolean): number {
  const cost = 10 + 0.5 * durationSeconds + (face ? 20 : 0) + (voice ? 15 : 0);
  return Math.min(300, Math.max(15, Math.round(cost)));
}

/** Spec 02 §9: the lowercased title with spaces as hyphens, plus .mp4; 'processed-video.mp4' without one. */
export function downloadFileName(title: string | null | undefined): string {
  const base = (title ?? '').trim().toLowerCase().replace(/\s+/g, '-');
  return base ? `${base}.mp4` : 'processed-video.mp4';
}

/** What a short-lived signed media link is for: a download (as a file) or a TV that fetches without the cookie. */
export type MediaLinkPurpose = 'download' | 'cast';

/** POST /api/processedVideos/:id/link → a URL that works without the session cookie until `expiresAt`. */
export interface MediaLink {
  url: string;
  expiresAt: string;
}

/** GET /api/processedVideos/estimate: seconds, from the server's measured throughput or (before any render) the formula. */
export interface ProcessingEstimate {
  seconds: number;
  basis: 'measured' | 'formula';
}

/** Spec 02 §2: 'N min M sec' or 'N seconds'. */
export function formatEstimate(seconds: number): string {
  const whole = Math.max(1, Math.round(seconds));
  if (whole < 60) return `${whole} seconds`;
  return `${Math.floor(whole / 60)} min ${whole % 60} sec`;
}
