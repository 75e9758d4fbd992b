CREATE TABLE "raffle_draw_snapshot_chunks" (
	"raffle_id" text COLLATE "C" NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "raffle_draw_snapshot_chunks_raffle_id_seq_pk" PRIMARY KEY("raffle_id","seq")
);
--> statement-breakpoint
ALTER TABLE "raffle_draw_snapshots" ALTER COLUMN "entry_lines" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "raffle_draw_snapshot_chunks" ADD CONSTRAINT "raffle_draw_snapshot_chunks_raffle_id_raffle_draw_snapshots_raffle_id_fk" FOREIGN KEY ("raffle_id") REFERENCES "public"."raffle_draw_snapshots"("raffle_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written (drizzle cannot express storage): chunks are deflated by the draw already, so Postgres must not try pglz on them again.
ALTER TABLE "raffle_draw_snapshot_chunks" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
