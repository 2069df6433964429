// The whole product's schema (spec 01 §3, spec 02 §3, decisions page). drizzle-kit generates migrations from it.
//
// Decisions written here because a reader will wonder:
// - `imageData` / `audioData` / `videoData` are transport fields of the create calls; the decoded file
//   goes to storage and the row keeps only its URL, so they are not columns.
// - Prices are integer cents (`priceCents`); every API speaks dollars.
// - `subscriptionStatus` uses one set of values (none, trial, active, expired); `plan` is free, premium or family.
// - Usernames and e-mails are unique without regard to case (indexes on lower()).
import { sql } from 'drizzle-orm';
import type { TemplateNarration } from '../../shared/voice-analysis';
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    password: text('password').notNull(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    role: text('role', { enum: ['user', 'admin'] }).notNull().default('user'),
    subscriptionStatus: text('subscription_status', { enum: ['none', 'trial', 'active', 'expired'] })
      .notNull()
      .default('none'),
    plan: text('plan', { enum: ['free', 'premium', 'family'] }).notNull().default('free'),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${table.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${table.email})`),
    index('users_created_at_idx').on(table.createdAt),
    check('users_role_check', sql`${table.role} in ('user', 'admin')`),
    check('users_subscription_status_check', sql`${table.subscriptionStatus} in ('none', 'trial', 'active', 'expired')`),
    check('users_plan_check', sql`${table.plan} in ('free', 'premium', 'family')`),
  ],
);

/**
 * Server-side sessions. The cookie carries a random id; the table keeps only its SHA-256, so a copy of
 * the database cannot be replayed as sign-ins.
 */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [index('sessions_expires_at_idx').on(table.expiresAt), index('sessions_user_id_idx').on(table.userId)],
);

/**
 * Attempt counters shared by every web process (features/auth/throttle.ts): failed sign-ins per account
 * and per address, new accounts per address. `failures` counts the attempts in the window.
 */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
});

export const people = pgTable(
  'people',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    relationship: text('relationship').notNull(),
    avatarUrl: text('avatar_url'),
    /**
     * The consent to keep this person's face and voice (decision 016): the parent's statement, the
     * wording's version, when and by which account. All null until given, and again once withdrawn.
     */
    consentBasis: text('consent_basis', { enum: ['self', 'guardian', 'permission'] }),
    consentVersion: text('consent_version'),
    consentGivenAt: timestamp('consent_given_at', { withTimezone: true, mode: 'date' }),
    consentGivenBy: integer('consent_given_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [
    index('people_user_id_idx').on(table.userId, table.createdAt),
    check('people_consent_basis_check', sql`${table.consentBasis} is null or ${table.consentBasis} in ('self', 'guardian', 'permission')`),
  ],
);

export const faceVideos = pgTable(
  'face_videos',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    videoUrl: text('video_url'),
    name: text('name').notNull(),
    duration: real('duration'),
    expressionType: text('expression_type').notNull().default('neutral'),
    extractedFacesCount: integer('extracted_faces_count').notNull().default(0),
    isProcessed: boolean('is_processed').notNull().default(false),
    processingStatus: text('processing_status', { enum: ['pending', 'processing', 'completed', 'failed'] })
      .notNull()
      .default('pending'),
    errorMessage: text('error_message'),
    /** When its faces were extracted: the raw clip is deleted RAW_CLIP_RETENTION_DAYS later (decision 016). */
    processedAt: timestamp('processed_at', { withTimezone: true, mode: 'date' }),
    /** When the raw clip was deleted by the retention rule (its extracted faces stay); null while kept. */
    rawClipDeletedAt: timestamp('raw_clip_deleted_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    index('face_videos_processed_at_idx').on(table.processedAt),
    index('face_videos_person_id_idx').on(table.personId, table.createdAt),
    index('face_videos_user_id_idx').on(table.userId, table.createdAt),
    index('face_videos_pending_idx').on(table.processingStatus),
  ],
);

export const faceImages = pgTable(
  'face_images',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    imageUrl: text('image_url'),
    name: text('name').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    mlProcessed: boolean('ml_processed').notNull().default(false),
    faceEmbedding: jsonb('face_embedding').$type<number[]>(),
    sourceVideoId: integer('source_video_id').references((): AnyPgColumn => faceVideos.id, { onDelete: 'set null' }),
    expressionType: text('expression_type').notNull().default('neutral'),
    /** What the face engine measured on this face (pipeline/face-analysis.ts): pose, sharpness, expression scores. */
    analysis: jsonb('analysis').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (table) => [
    index('face_images_person_id_idx').on(table.personId, table.createdAt),
    index('face_images_user_id_idx').on(table.userId, table.createdAt),
    index('face_images_source_video_id_idx').on(table.sourceVideoId),
    // At most one default face per person.
    uniqueIndex('face_images_one_default_idx').on(table.personId).where(sql`${table.isDefault}`),
  ],
);

export const voiceRecordings = pgTable(
  'voice_recordings',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    audioUrl: text('audio_url'),
    name: text('name').notNull(),
    /** Seconds, measured on the server. */
    duration: real('duration'),
    isDefault: boolean('is_default').notNull().default(false),
    mlProcessed: boolean('ml_processed').notNull().default(false),
    voiceEmbedding: jsonb('voice_embedding').$type<number[]>(),
    /** The voice analysis job's summary (pitch, loudness, speech share, warnings), shown to the parent. */
    analysis: jsonb('analysis').$type<Record<string, unknown>>(),
    /** Why the analysis failed, in words a parent understands; null while pending or when it worked. */
    analysisError: text('analysis_error'),
    type: text('type'),
    createdAt: createdAt(),
  },
  (table) => [
    index('voice_recordings_person_id_idx').on(table.personId, table.createdAt),
    index('voice_recordings_user_id_idx').on(table.userId, table.createdAt),
    uniqueIndex('voice_recordings_one_default_idx').on(table.personId).where(sql`${table.isDefault}`),
  ],
);

/**
 * Files streamed to POST /api/upload/video that no face video uses yet. They count towards the user's
 * storage quota, go with their person or user, and are swept when they expire.
 */
export const pendingUploads = pgTable(
  'pending_uploads',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    url: text('url').notNull().unique(),
    bytes: integer('bytes').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('pending_uploads_user_id_idx').on(table.userId), index('pending_uploads_expires_at_idx').on(table.expiresAt)],
);

export const videoTemplates = pgTable(
  'video_templates',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    thumbnailUrl: text('thumbnail_url'),
    videoUrl: text('video_url'),
    /** Seconds, measured with ffprobe when uploaded. */
    duration: integer('duration').notNull(),
    category: text('category').notNull().default('education'),
    ageRange: text('age_range').notNull().default('3-5'),
    featured: boolean('featured').notNull().default(false),
    isPremium: boolean('is_premium').notNull().default(false),
    /** Integer cents; null when the template has no price. */
    priceCents: integer('price_cents'),
    voiceOnly: boolean('voice_only').notNull().default(false),
    /** The narration's voice analysis (decision 012); null until analysed (at upload, else before its first video). */
    narration: jsonb('narration').$type<TemplateNarration>(),
    createdAt: createdAt(),
  },
  (table) => [
    index('video_templates_created_at_idx').on(table.createdAt),
    index('video_templates_featured_idx').on(table.featured, table.createdAt),
    check('video_templates_price_check', sql`${table.priceCents} is null or ${table.priceCents} >= 0`),
  ],
);

export const processedVideos = pgTable(
  'processed_videos',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // A template in use cannot be deleted: the videos made from it would break. Null for a voice-only
    // video made from the user's own upload (sourceUrl).
    templateId: integer('template_id').references(() => videoTemplates.id, { onDelete: 'restrict' }),
    personId: integer('person_id').references(() => people.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    description: text('description'),
    thumbnailUrl: text('thumbnail_url'),
    videoUrl: text('video_url'),
    faceImageId: integer('face_image_id').references(() => faceImages.id, { onDelete: 'set null' }),
    voiceRecordingId: integer('voice_recording_id').references(() => voiceRecordings.id, { onDelete: 'set null' }),
    voiceOnly: boolean('voice_only').notNull().default(false),
    status: text('status', { enum: ['pending', 'processing', 'completed', 'failed'] })
      .notNull()
      .default('pending'),
    error: text('error'),
    outputUrl: text('output_url'),
    /** A voice-only upload's own video (processed-videos media of the owner, never public); null for a template's video. */
    sourceUrl: text('source_url'),
    /** What the parent should know about how the video was made (RENDER_NOTICES: images left out, the chosen photo's warnings), empty when nothing. */
    notices: jsonb('notices').$type<string[]>().notNull().default([]),
    /** Real progress reported by the render worker, 0–100 per stage. */
    faceProgress: integer('face_progress').notNull().default(0),
    voiceProgress: integer('voice_progress').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    index('processed_videos_user_id_idx').on(table.userId, table.createdAt),
    index('processed_videos_template_id_idx').on(table.templateId),
    index('processed_videos_status_idx').on(table.status, table.createdAt),
  ],
);

export const processedVideoPeople = pgTable(
  'processed_video_people',
  {
    id: serial('id').primaryKey(),
    processedVideoId: integer('processed_video_id')
      .notNull()
      .references(() => processedVideos.id, { onDelete: 'cascade' }),
    personId: integer('person_id')
      .notNull()
      .references(() => people.id, { onDelete: 'cascade' }),
    faceImageId: integer('face_image_id').references(() => faceImages.id, { onDelete: 'set null' }),
    voiceRecordingId: integer('voice_recording_id').references(() => voiceRecordings.id, { onDelete: 'set null' }),
    role: text('role'),
    screenTime: real('screen_time'),
  },
  (table) => [
    index('processed_video_people_video_idx').on(table.processedVideoId),
    index('processed_video_people_person_idx').on(table.personId),
  ],
);

/** Template purchases, recorded from the payment provider's confirmation. */
export const purchases = pgTable(
  'purchases',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    templateId: integer('template_id')
      .notNull()
      .references(() => videoTemplates.id, { onDelete: 'restrict' }),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: text('status', { enum: ['pending', 'completed', 'failed'] }).notNull().default('pending'),
    stripePaymentIntentId: text('stripe_payment_intent_id').unique(),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('purchases_user_template_idx').on(table.userId, table.templateId),
    index('purchases_template_id_idx').on(table.templateId),
    index('purchases_created_at_idx').on(table.createdAt),
  ],
);

/**
 * What happened to an account's data and who did it (decision 016): consent given or withdrawn, data
 * exported or deleted. Append-only: a trigger refuses updates, and deletes except those cascading from
 * the account's own deletion. It holds no media and no fingerprints.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    /** The account whose data it was. */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who did it: the account itself, an admin's account id, or null for the app's own retention rule. */
    actorId: integer('actor_id'),
    actorRole: text('actor_role', { enum: ['owner', 'admin', 'system'] }).notNull(),
    action: text('action').notNull(),
    /** The person it was about, when there was one (a plain number: the person may be gone since). */
    personId: integer('person_id'),
    /** A short sentence for the parent ('Consent given for Emma as parent or guardian'). */
    detail: text('detail').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('audit_log_user_id_idx').on(table.userId, table.createdAt)],
);

/** 'Download my data' zips (decision 016): built by a job, offered through a signed link, deleted after a day. */
export const dataExports = pgTable(
  'data_exports',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'processing', 'completed', 'failed'] })
      .notNull()
      .default('pending'),
    progress: integer('progress').notNull().default(0),
    fileUrl: text('file_url'),
    bytes: integer('bytes'),
    error: text('error'),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    /** When the zip (and this row) go. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('data_exports_user_id_idx').on(table.userId, table.createdAt), index('data_exports_expires_at_idx').on(table.expiresAt)],
);

export type UserRow = typeof users.$inferSelect;
export type VideoTemplateRow = typeof videoTemplates.$inferSelect;

/**
 * Stripe events already handled (decision 017): Stripe delivers an event at least once, so its id is
 * recorded in the transaction that applies it, and the same event again changes nothing.
 */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
