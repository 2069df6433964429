// People, face and voice rules and messages (spec 01 §5, §8, §9), shared by the forms and the routes.
import { z } from 'zod';
import { cleanText } from './validation';

export const MEDIA_MESSAGES = {
  storageFull: 'Your storage is full. Delete some face clips, recordings or videos to make room, then try again.',
  personNameTooShort: 'Name must be at least 2 characters',
  personNameTooLong: 'Name must be at most 100 characters',
  relationshipTooShort: 'Relationship must be at least 2 characters',
  relationshipTooLong: 'Relationship must be at most 50 characters',
  invalidImageType: 'Invalid file type: Please upload an image file.',
  imageTooLarge: 'File too large: Please upload an image smaller than 5MB.',
  invalidVideoType: 'Please upload a valid video file (MP4, MOV, AVI, WebM)',
  videoTooLarge: 'Maximum file size is 100MB',
  noVideoSelected: 'No video selected',
  // The generic video upload component (spec 02 §5); the face video upload keeps its own words above.
  videoUploadInvalidType: 'Please choose an MP4, MOV or AVI video file',
  noFileSelected: 'No file selected: Please choose a video file to upload',
  noRecording: 'No recording to save',
  recordingTooShort: 'Recording too short: Please record at least 5 seconds of audio',
  recordingTooLong: 'Recording too long: Please keep recordings to 30 seconds or less',
  invalidAudioType: 'Invalid file type: Please record or upload an audio file.',
  notBase64: 'The file data is not a valid base64 data URL',
  emptyFile: 'The file is empty',
  unreadableMedia: 'The file could not be read as media. It may be damaged or incomplete.',
  personNotFound: 'Person not found',
  faceImageNotFound: 'Face image not found',
  faceVideoNotFound: 'Face video not found',
  voiceRecordingNotFound: 'Voice recording not found',
  audioTooLarge: 'File too large: Please upload a recording smaller than 10MB.',
  /** A face video sent inline as a data URL is capped lower than an upload (the JSON body is held in memory). */
  videoDataTooLarge: 'This video is too large to send inline. Please upload it as a file (up to 100MB).',
  uploadNotFound: 'The uploaded video was not found. Please upload it again.',
  uploadAlreadyUsed: 'This uploaded video is already saved as a face video.',
  // Browser side: devices, recordings and uploads (spec 01 §5, §8). "Title: description" messages are
  // shown as a toast with that title and description.
  cameraDenied: 'Please allow camera access to capture your face.',
  microphoneDenied: 'Please allow microphone access to record audio.',
  microphoneUnavailable:
    'Could not access microphone: Please make sure your microphone is connected and you have granted permission to use it.',
  wizardNoRecording: 'No recording: Please record your voice first',
  uploadFailed: 'Upload failed: There was a problem uploading the video',
  uploadSucceeded: 'Upload successful: Your face video has been uploaded and is being processed for face extraction',
  faceTrainingCamera: 'Unable to access camera. Please check permissions and try again.',
  faceTrainingNotInitialized: 'Camera not initialized. Please refresh and try again.',
  faceTrainingStartFailed: 'Unable to start recording. Please try again.',
  faceTrainingNoVideo: 'No video recorded. Please try again.',
  faceTrainingUploadFailed: 'Failed to upload video. Please try again.',
  faceTrainingProcessFailed: 'Failed to process video data. Please try again.',
  faceTrainingPrepareFailed: 'Failed to prepare video for upload. Please try again.',
  loadPeopleFailed: 'Error loading people',
  loadPeopleDataFailed: 'Failed to load people data. Please try refreshing the page.',
  loadPersonFailed: 'Could not load person data. Please try again.',
  loadVoiceRecordingsFailed: 'Error loading voice recordings',
  // Limits on the work one upload may cause on the server (pixels and seconds, read before decoding).
  imageTooManyPixels: 'This image is too large (over 40 megapixels). Please use a smaller photo.',
  imageSideTooLong: 'This image is too wide or too tall (over 10,000 pixels). Please use a smaller photo.',
  faceVideoTooLong: 'Face videos can be at most 60 seconds long.',
  videoResolutionTooHigh: 'This video is too large on screen (over 4096 pixels wide or tall). Please use a 1080p or 4K video.',
  videoFrameRateTooHigh: 'This video has too many frames per second (over 120). Please record it at a normal speed, like 30 or 60.',
  mediaCheckTooSlow: 'Checking this file took too long. It may be damaged, or too long or too large. Please try another file.',
  tooManyUploads: 'Too many uploads at once. Please wait for the current ones to finish.',
} as const;

/** Asked before a face photo or a voice recording is deleted: biometric data never goes at one click. */
export const deleteFaceImageQuestion = (name: string) => `Delete the face photo "${name}"? It cannot be undone.`;
export const deleteVoiceRecordingQuestion = (name: string) => `Delete the voice recording "${name}"? It cannot be undone.`;

/** Video types the face video upload accepts (MP4, MOV, AVI, WebM). */
export const FACE_VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/x-msvideo', 'video/webm'] as const;
/** Video types the generic video upload accepts (spec 02 §5): MP4, MOV, AVI. */
export const VIDEO_UPLOAD_TYPES = ['video/mp4', 'video/quicktime', 'video/x-msvideo'] as const;
/** How a video upload's hint and guidelines name each type. */
export const VIDEO_TYPE_NAMES: Record<string, string> = {
  'video/mp4': 'MP4',
  'video/quicktime': 'MOV',
  'video/x-msvideo': 'AVI',
  'video/webm': 'WebM',
};
/** Image types the photo upload hint names; any image/* passes the type check. */
export const FACE_IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp';

export const MEDIA_LIMITS = {
  imageMaxBytes: 5 * 1024 * 1024,
  videoMaxBytes: 100 * 1024 * 1024,
  /** A recording of 30 s in any browser codec stays far below this. */
  audioMaxBytes: 10 * 1024 * 1024,
  voiceMinSeconds: 5,
  voiceMaxSeconds: 30,
  /** Recorders stop a little after their 30 s timer; that overshoot is not the user's fault. */
  voiceMaxOvershootSeconds: 0.5,
  /** Face videos sent inline (data URL in JSON); larger ones go through POST /api/upload/video. */
  inlineVideoMaxBytes: 20 * 1024 * 1024,
  faceClipSeconds: 10,
  faceTrainingTickMs: 500,
  faceCollectionPreview: 4,
  cameraIdeal: { width: 1280, height: 720 },
  cameraJpegQuality: 0.95,
  /** Images: pixels and the longer side, read from the header before anything is decoded. */
  imageMaxPixels: 40_000_000,
  imageMaxSide: 10_000,
  faceVideoMaxSeconds: 60,
  /** Every user's faces, clips, recordings, pending uploads and videos together (USER_STORAGE_QUOTA_MB on the server). */
  userStorageQuotaBytes: 2 * 1024 * 1024 * 1024,
  /** As with recordings: a camera stopped at 60 s writes a little more. */
  faceVideoMaxOvershootSeconds: 0.5,
  /** Videos (face videos and templates): each side, and frames per second as counted in the file. */
  videoMaxSide: 4096,
  videoMaxFps: 120,
} as const;

/** 'Maximum file size is 100MB' for any limit, the words of MEDIA_MESSAGES.videoTooLarge. */
export function maxFileSizeMessage(maxBytes: number): string {
  return `Maximum file size is ${Math.round(maxBytes / (1024 * 1024))}MB`;
}

/** Expression types of the face training guide, in order. */
export const FACE_EXPRESSIONS = ['neutral', 'smile', 'profile-left', 'profile-right', 'talking'] as const;
/** Step types of the voice training wizard, in order. */
export const VOICE_STEP_TYPES = ['casual', 'instructional', 'question', 'storytelling', 'happy'] as const;

const text = (label: string, min: number, max: number, tooShort: string, tooLong: string) =>
  cleanText(
    z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be text`) }).trim(),
    label,
  )
    .min(min, tooShort)
    .max(max, tooLong);

export const personSchema = z.object({
  name: text('Name', 2, 100, MEDIA_MESSAGES.personNameTooShort, MEDIA_MESSAGES.personNameTooLong),
  relationship: text('Relationship', 2, 50, MEDIA_MESSAGES.relationshipTooShort, MEDIA_MESSAGES.relationshipTooLong),
});
export type PersonInput = z.infer<typeof personSchema>;

export const mediaNameSchema = text('Name', 1, 200, 'Name is required', 'Name must be at most 200 characters');

export const expressionTypeSchema = cleanText(z.string({ error: 'Expression type must be text' }).trim(), 'Expression type')
  .min(1, 'Expression type is required')
  .max(50, 'Expression type must be at most 50 characters');

/** The user's plan limit on people, in the words the spec gives ('Your Free plan allows 1 person. ...'). */
export function peopleLimitMessage(planName: string, maxPeople: number): string {
  return `Your ${planName} plan allows ${maxPeople} ${maxPeople === 1 ? 'person' : 'people'}. Upgrade to add more.`;
}
