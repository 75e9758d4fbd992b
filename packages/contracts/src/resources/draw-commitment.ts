import { Type, type Static } from '@sinclair/typebox';
import { DateTime, StringEnum } from '../primitives.js';

/** The draw algorithms a commitment can be for (docs/decisions/0043-draw-algorithm-bound-at-publish.md). */
export const DRAW_ALGORITHMS = ['es-hmac-sha256-drand-v1', 'es-hmac-sha256-v1'] as const;

/**
 * What a raffle made public about its draw before drawing (issue 34): the commitment and the
 * algorithm it is for, from publish; the beacon round, from the close. A verifier holds a proof
 * against it (or against a copy it kept from earlier, which is stronger: this one is served by the
 * same operator as the proof).
 */
export const DrawCommitmentSchema = Type.Object(
  {
    slug: Type.String(),
    drawCommitment: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'sha256 of the draw seed (hex), fixed at publish.' }),
    drawAlgorithm: Type.Optional(
      StringEnum(
        DRAW_ALGORITHMS,
        'The algorithm the commitment is for, bound at publish: `es-hmac-sha256-drand-v1` for every weighted raffle published since it existed. Absent for raffles published before (a `beaconRound` then binds the beacon draw the same way; without one the draw is seed-only) and for mechanics without a weighted draw.',
      ),
    ),
    publishedAt: DateTime(),
    closedAt: Type.Optional(DateTime("When entries closed, by the platform's clock: the operator's claim, like the proof's `closedAt`.")),
    beaconRound: Type.Optional(
      Type.Integer({ minimum: 1, description: 'The beacon round the draw mixes in, fixed and public from the close (decision 0022); absent before the close.' }),
    ),
    beaconChainHash: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$', description: "The drand chain `beaconRound` belongs to (its chain hash)." })),
  },
  {
    $id: 'DrawCommitment',
    additionalProperties: false,
    examples: [
      {
        slug: 'nebula-genesis-mint',
        drawCommitment: '9f2c4e1a7b3d5f6081a2c3e4b5d6f708192a3b4c5d6e7f8091a2b3c4d5e6f708',
        drawAlgorithm: 'es-hmac-sha256-drand-v1',
        publishedAt: '2026-05-01T12:00:00.000Z',
        closedAt: '2026-05-08T12:00:00.000Z',
        beaconRound: 12345678,
        beaconChainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
      },
    ],
  },
);
export type DrawCommitmentBody = Static<typeof DrawCommitmentSchema>;
