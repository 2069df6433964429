ALTER TABLE "processed_videos" ALTER COLUMN "template_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "processed_videos" ADD COLUMN "source_url" text;