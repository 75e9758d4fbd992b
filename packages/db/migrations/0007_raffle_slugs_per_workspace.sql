ALTER TABLE "raffles" DROP CONSTRAINT "raffles_slug_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "raffles_workspace_slug_unique" ON "raffles" USING btree ("workspace_id","slug");--> statement-breakpoint
CREATE UNIQUE INDEX "raffles_published_slug_unique" ON "raffles" USING btree ("slug") WHERE "raffles"."published_at" is not null;