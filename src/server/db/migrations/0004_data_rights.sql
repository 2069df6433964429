CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"actor_id" integer,
	"actor_role" text NOT NULL,
	"action" text NOT NULL,
	"person_id" integer,
	"detail" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_exports" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"file_url" text,
	"bytes" integer,
	"error" text,
	"completed_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "face_videos" ADD COLUMN "processed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "face_videos" ADD COLUMN "raw_clip_deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "people" ADD COLUMN "consent_basis" text;--> statement-breakpoint
ALTER TABLE "people" ADD COLUMN "consent_version" text;--> statement-breakpoint
ALTER TABLE "people" ADD COLUMN "consent_given_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "people" ADD COLUMN "consent_given_by" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_user_id_idx" ON "audit_log" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "data_exports_user_id_idx" ON "data_exports" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "data_exports_expires_at_idx" ON "data_exports" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "people" ADD CONSTRAINT "people_consent_given_by_users_id_fk" FOREIGN KEY ("consent_given_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "face_videos_processed_at_idx" ON "face_videos" USING btree ("processed_at");--> statement-breakpoint
ALTER TABLE "people" ADD CONSTRAINT "people_consent_basis_check" CHECK ("people"."consent_basis" is null or "people"."consent_basis" in ('self', 'guardian', 'permission'));--> statement-breakpoint
-- Faces extracted before this migration: their processing time is taken as their upload time.
UPDATE "face_videos" SET "processed_at" = "created_at" WHERE "processing_status" = 'completed' AND "processed_at" IS NULL;--> statement-breakpoint
-- The audit log is append-only (decision 016): no update ever, and a delete only as the cascade of its
-- account's deletion (the foreign key's own trigger runs first, so the depth is then above 1).
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
