// Shapes the API returns, shared by the server's serialisers and the client's hooks.
import type { PlanId } from './plans';
import type { AuditAction, ConsentBasis } from './privacy';
import type { TemplateNarration, VoiceAnalysisSummary } from './voice-analysis';

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const SUBSCRIPTION_STATUSES = ['none', 'trial', 'active', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** GET /api/me, POST /api/login, POST /api/register. Never carries the password hash. */
export interface CurrentUser {
  id: number;
  username: string;
  email: string;
  displayName: string;
  role: Role;
  subscriptionStatus: SubscriptionStatus;
  plan: 'free' | 'premium' | 'family';
  createdAt: string;
}

/** GET/PATCH /api/users/:id. */
export type UserProfile = CurrentUser;

/** GET /api/users/:id/usage: a limit is null when there is none (a paid plan's videos, an admin). */
export interface PlanUsage {
  plan: PlanId;
  people: { used: number; limit: number | null };
  /** This calendar month's (UTC) videos made or being made; failed ones do not count. */
  videosThisMonth: { used: number; limit: number | null };
}

/** What an error lets the client do besides showing its words: `plan_limit` offers the upgrade. */
export type ErrorCode = 'plan_limit';

/** Every error response. */
export interface ApiError {
  message: string;
  code?: ErrorCode;
}

// People, faces and voices (spec 01 §3, §7). Dates are ISO strings; media URLs are /api/media/… and
// are served to their owner only (the session cookie), so they work directly as <img>/<audio>/<video> src.

/** GET /api/users/:userId/people, GET/POST/PATCH /api/people/:id. */
export interface Person {
  id: number;
  userId: number;
  name: string;
  relationship: string;
  avatarUrl: string | null;
  createdAt: string;
  /** The consent to keep their face and voice (decision 016); null until given, and once withdrawn. */
  consent: PersonConsent | null;
}

export interface PersonConsent {
  basis: ConsentBasis;
  /** The version of the wording the parent agreed to (CONSENT_WORDING_VERSION at the time). */
  wordingVersion: string;
  givenAt: string;
  /** The account that gave it; null when that account is gone. */
  givenBy: number | null;
}

/** DELETE /api/people/:id/consent: what was deleted with it. */
export interface ConsentWithdrawal {
  person: Person;
  deleted: { faceImages: number; faceVideos: number; voiceRecordings: number; processedVideos: number };
}

/** GET /api/users/:id/audit: one entry of the account's append-only log. */
export interface AuditEntry {
  id: number;
  action: AuditAction;
  actorRole: 'owner' | 'admin' | 'system';
  personId: number | null;
  detail: string;
  createdAt: string;
}

/** POST /api/users/:id/exports, GET /api/users/:id/exports/latest: 'Download my data'. */
export interface DataExport {
  id: number;
  status: 'pending' | 'processing' | 'completed' | 'failed';
  progress: number;
  bytes: number | null;
  error: string | null;
  createdAt: string;
  completedAt: string | null;
  expiresAt: string;
}

/** GET /api/privacy: the installation's retention settings, public (the privacy page shows them). */
export interface PrivacySettings {
  rawClipRetentionDays: number;
  exportLifetimeHours: number;
  consentWordingVersion: string;
}

/** GET /api/people/:personId/faceImages, POST /api/faceImages. */
export interface FaceImage {
  id: number;
  userId: number;
  personId: number;
  imageUrl: string;
  name: string;
  isDefault: boolean;
  mlProcessed: boolean;
  expressionType: string | null;
  sourceVideoId: number | null;
  createdAt: string;
  /** How many faces the photo showed when it was saved; the largest is the one used. 1 when not recorded. */
  facesInPhoto: number;
  /** Where the face used is in the photo, as fractions (0..1) of its width and height; null when not recorded. */
  faceBox: { x: number; y: number; width: number; height: number } | null;
  /** The face is turned far to one side (FACE_ANALYSIS_MESSAGES.turnedAway): kept, with a warning. */
  turnedAway: boolean;
  /** The face looks blurred (FACE_ANALYSIS_MESSAGES.blurred): kept, with a warning, and not used to lend the render its mouths. */
  blurred: boolean;
  /** The eyes look shut (FACE_ANALYSIS_MESSAGES.eyesClosed): kept, with a warning. */
  eyesClosed: boolean;
  /** The eyes look to one side (FACE_ANALYSIS_MESSAGES.looksAside): kept, with a warning. */
  looksAside: boolean;
  /** The face is small in the photo (FACE_ANALYSIS_MESSAGES.smallFace): kept, with a warning, and not used to lend the render its mouths. */
  smallFace: boolean;
}

/** GET /api/people/:personId/faceVideos, POST /api/faceVideos. */
export interface FaceVideo {
  id: number;
  userId: number;
  personId: number;
  /** Null once the raw clip was deleted by the retention rule (its extracted faces stay). */
  videoUrl: string | null;
  name: string;
  duration: number | null;
  expressionType: string;
  extractedFacesCount: number;
  /** When its faces were extracted; the raw clip is deleted RAW_CLIP_RETENTION_DAYS later. */
  processedAt: string | null;
  rawClipDeletedAt: string | null;
  isProcessed: boolean;
  processingStatus: 'pending' | 'processing' | 'completed' | 'failed';
  errorMessage: string | null;
  /** Every face taken from it is small (FaceImage.smallFace): said with FACE_ANALYSIS_MESSAGES.smallFaceInClip. */
  smallFace: boolean;
  createdAt: string;
}

/** GET /api/people/:personId/voiceRecordings, POST /api/voiceRecordings. */
export interface VoiceRecording {
  id: number;
  userId: number;
  personId: number;
  audioUrl: string;
  name: string;
  duration: number;
  isDefault: boolean;
  /** True once the voice analysis job has measured the recording (`analysis` is then set). */
  mlProcessed: boolean;
  /** Pitch, loudness, speech share and warnings; null until analysed. */
  analysis: VoiceAnalysisSummary | null;
  /** Why the analysis failed, for the parent; null while waiting or when it worked. */
  analysisError: string | null;
  type: string | null;
  createdAt: string;
}

/** POST /api/upload/video. */
export interface VideoUpload {
  videoUrl: string;
  videoData: string;
}

// Templates and the admin dashboard (spec 02 §3, §7). Prices are dollars with 2 decimals (decisions page).

/** GET /api/videoTemplates/demo-status (public): true while a first start makes the demo templates. */
export interface DemoLibraryStatus {
  preparing: boolean;
}

/** GET /api/videoTemplates, /featured, /:id and the admin template calls. */
export interface VideoTemplate {
  id: number;
  title: string;
  description: string;
  thumbnailUrl: string | null;
  videoUrl: string | null;
  /** Seconds. */
  duration: number;
  category: string;
  ageRange: string;
  featured: boolean;
  isPremium: boolean;
  /** Dollars with 2 decimals, or null when the template has no price. */
  price: number | null;
  voiceOnly: boolean;
  /** The narration's analysis; null until analysed. */
  narration: TemplateNarration | null;
  createdAt: string;
}

/** GET /api/admin/users and the PATCH /api/admin/users/:id/… answers. */
export type AdminUser = CurrentUser;

/** GET /api/admin/analytics: real figures from the database. Money in dollars. */
export interface AdminAnalytics {
  totals: {
    users: number;
    admins: number;
    people: number;
    templates: number;
    premiumTemplates: number;
    videos: number;
    completedVideos: number;
    failedVideos: number;
    inProgressVideos: number;
    purchases: number;
    revenue: number;
  };
  usersByPlan: Record<'free' | 'premium' | 'family', number>;
  usersBySubscription: Record<SubscriptionStatus, number>;
  /** The last 8 weeks (Monday starts, UTC), oldest first, including empty weeks. */
  weekly: { weekStart: string; videos: number; signups: number }[];
  /** Templates by videos made from them, then purchases. At most 5. */
  topTemplates: { id: number; title: string; videos: number; purchases: number; revenue: number }[];
  /** The background job queues: depth now, outcomes over the last 24 hours, the latest failures. */
  jobs: {
    queues: { name: string; waiting: number; active: number; failed24h: number; completed24h: number }[];
    recentFailures: { queue: string; failedAt: string; message: string }[];
  };
}

/** GET /api/processedVideos/:id, GET /api/users/:userId/processedVideos, POST /api/processedVideos. */
export interface ProcessedVideo {
  id: number;
  userId: number;
  /** The template it was made from; null for a voice-only video made from the user's own upload. */
  templateId: number | null;
  personId: number | null;
  title: string;
  description: string | null;
  /** The output's thumbnail when completed, else null (show the template's). */
  thumbnailUrl: string | null;
  /** The output video (also in `outputUrl`) when completed. */
  videoUrl: string | null;
  outputUrl: string | null;
  faceImageId: number | null;
  voiceRecordingId: number | null;
  voiceOnly: boolean;
  status: 'pending' | 'processing' | 'completed' | 'failed';
  error: string | null;
  /** What the parent should know about how it was made (images of the person left out and why, the chosen photo's warnings); empty when nothing. */
  notices: string[];
  /** Real progress of the render, 0–100 per stage. */
  faceProgress: number;
  voiceProgress: number;
  startedAt: string | null;
  completedAt: string | null;
  createdAt: string;
}
