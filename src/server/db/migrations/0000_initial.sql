CREATE TABLE "face_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"person_id" integer NOT NULL,
	"image_url" text,
	"name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"ml_processed" boolean DEFAULT false NOT NULL,
	"face_embedding" jsonb,
	"source_video_id" integer,
	"expression_type" text DEFAULT 'neutral' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "face_videos" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"person_id" integer NOT NULL,
	"video_url" text,
	"name" text NOT NULL,
	"duration" real,
	"expression_type" text DEFAULT 'neutral' NOT NULL,
	"extracted_faces_count" integer DEFAULT 0 NOT NULL,
	"is_processed" boolean DEFAULT false NOT NULL,
	"processing_status" text DEFAULT 'pending' NOT NULL,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "people" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"relationship" text NOT NULL,
	"avatar_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "processed_video_people" (
	"id" serial PRIMARY KEY NOT NULL,
	"processed_video_id" integer NOT NULL,
	"person_id" integer NOT NULL,
	"face_image_id" integer,
	"voice_recording_id" integer,
	"role" text,
	"screen_time" real
);
--> statement-breakpoint
CREATE TABLE "processed_videos" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"person_id" integer,
	"title" text NOT NULL,
	"description" text,
	"thumbnail_url" text,
	"video_url" text,
	"face_image_id" integer,
	"voice_recording_id" integer,
	"voice_only" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"output_url" text,
	"face_progress" integer DEFAULT 0 NOT NULL,
	"voice_progress" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"stripe_payment_intent_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "purchases_stripe_payment_intent_id_unique" UNIQUE("stripe_payment_intent_id")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"password" text NOT NULL,
	"email" text NOT NULL,
	"display_name" text NOT NULL,
	"role" text DEFAULT 'user' NOT NULL,
	"subscription_status" text DEFAULT 'none' NOT NULL,
	"plan" text DEFAULT 'free' NOT NULL,
	"stripe_customer_id" text,
	"stripe_subscription_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_role_check" CHECK ("users"."role" in ('user', 'admin')),
	CONSTRAINT "users_subscription_status_check" CHECK ("users"."subscription_status" in ('none', 'trial', 'active', 'expired')),
	CONSTRAINT "users_plan_check" CHECK ("users"."plan" in ('free', 'premium', 'family'))
);
--> statement-breakpoint
CREATE TABLE "video_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"thumbnail_url" text,
	"video_url" text,
	"duration" integer NOT NULL,
	"category" text DEFAULT 'education' NOT NULL,
	"age_range" text DEFAULT '3-5' NOT NULL,
	"featured" boolean DEFAULT false NOT NULL,
	"is_premium" boolean DEFAULT false NOT NULL,
	"price_cents" integer,
	"voice_only" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_templates_price_check" CHECK ("video_templates"."price_cents" is null or "video_templates"."price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "voice_recordings" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"person_id" integer NOT NULL,
	"audio_url" text,
	"name" text NOT NULL,
	"duration" real,
	"is_default" boolean DEFAULT false NOT NULL,
	"ml_processed" boolean DEFAULT false NOT NULL,
	"voice_embedding" jsonb,
	"type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "face_images" ADD CONSTRAINT "face_images_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_images" ADD CONSTRAINT "face_images_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_images" ADD CONSTRAINT "face_images_source_video_id_face_videos_id_fk" FOREIGN KEY ("source_video_id") REFERENCES "public"."face_videos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_videos" ADD CONSTRAINT "face_videos_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_videos" ADD CONSTRAINT "face_videos_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "people" ADD CONSTRAINT "people_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processed_video_people" ADD CONSTRAINT "processed_video_people_processed_video_id_processed_videos_id_fk" FOREIGN KEY ("processed_video_id") REFERENCES "public"."processed_videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processed_video_people" ADD CONSTRAINT "processed_video_people_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processed_video_people" ADD CONSTRAINT "processed_video_people_face_image_id_face_images_id_fk" FOREIGN KEY ("face_image_id") REFERENCES "public"."face_images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processed_video_people" ADD CONSTRAINT "processed_video_people_voice_recording_id_voice_recordings_id_fk" FOREIGN KEY ("voice_recording_id") REFERENCES "public"."voice_recordings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processed_videos" ADD CONSTRAINT "processed_videos_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processed_videos" ADD CONSTRAINT "processed_videos_template_id_video_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."video_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processed_videos" ADD CONSTRAINT "processed_videos_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processed_videos" ADD CONSTRAINT "processed_videos_face_image_id_face_images_id_fk" FOREIGN KEY ("face_image_id") REFERENCES "public"."face_images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processed_videos" ADD CONSTRAINT "processed_videos_voice_recording_id_voice_recordings_id_fk" FOREIGN KEY ("voice_recording_id") REFERENCES "public"."voice_recordings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_template_id_video_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."video_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_recordings" ADD CONSTRAINT "voice_recordings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_recordings" ADD CONSTRAINT "voice_recordings_person_id_people_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."people"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "face_images_person_id_idx" ON "face_images" USING btree ("person_id","created_at");--> statement-breakpoint
CREATE INDEX "face_images_user_id_idx" ON "face_images" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "face_images_source_video_id_idx" ON "face_images" USING btree ("source_video_id");--> statement-breakpoint
CREATE UNIQUE INDEX "face_images_one_default_idx" ON "face_images" USING btree ("person_id") WHERE "face_images"."is_default";--> statement-breakpoint
CREATE INDEX "face_videos_person_id_idx" ON "face_videos" USING btree ("person_id","created_at");--> statement-breakpoint
CREATE INDEX "face_videos_user_id_idx" ON "face_videos" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "face_videos_pending_idx" ON "face_videos" USING btree ("processing_status");--> statement-breakpoint
CREATE INDEX "people_user_id_idx" ON "people" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "processed_video_people_video_idx" ON "processed_video_people" USING btree ("processed_video_id");--> statement-breakpoint
CREATE INDEX "processed_video_people_person_idx" ON "processed_video_people" USING btree ("person_id");--> statement-breakpoint
CREATE INDEX "processed_videos_user_id_idx" ON "processed_videos" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "processed_videos_template_id_idx" ON "processed_videos" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "processed_videos_status_idx" ON "processed_videos" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "purchases_user_template_idx" ON "purchases" USING btree ("user_id","template_id");--> statement-breakpoint
CREATE INDEX "purchases_template_id_idx" ON "purchases" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "purchases_created_at_idx" ON "purchases" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sessions_expires_at_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_idx" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "video_templates_created_at_idx" ON "video_templates" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "video_templates_featured_idx" ON "video_templates" USING btree ("featured","created_at");--> statement-breakpoint
CREATE INDEX "voice_recordings_person_id_idx" ON "voice_recordings" USING btree ("person_id","created_at");--> statement-breakpoint
CREATE INDEX "voice_recordings_user_id_idx" ON "voice_recordings" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "voice_recordings_one_default_idx" ON "voice_recordings" USING btree ("person_id") WHERE "voice_recordings"."is_default";