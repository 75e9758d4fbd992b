-- Issue 34: the algorithm a raffle's draw commitment is for, bound at publish and public with the
-- commitment, so a verifier refuses a beacon draw's proof relabelled to the seed-only algorithm.
-- Raffles already on their way to a beacon draw (weighted, published, and either not closed yet or
-- closed with a round) get it now; those closed before beacon rounds keep null: they were drawn,
-- or will be, with the seed alone, and verifiers show them as predictable by the seed's holder.
ALTER TABLE "raffles" ADD COLUMN "draw_algorithm" text;--> statement-breakpoint
UPDATE "raffles" SET "draw_algorithm" = 'es-hmac-sha256-drand-v1'
  WHERE "mechanic" = 'raffle' AND "published_at" IS NOT NULL AND ("beacon_round" IS NOT NULL OR "status" IN ('scheduled', 'open'));
