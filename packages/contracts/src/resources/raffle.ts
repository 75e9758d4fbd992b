import { Type, type Static } from '@sinclair/typebox';
import {
  ALLOCATION_TYPES,
  RAFFLE_MECHANICS,
  RAFFLE_STATUSES,
  RAFFLE_VISIBILITIES,
  REQUIREMENT_TYPES,
} from '../domain-values.js';
import { DateTime, Nullable, StringEnum } from '../primitives.js';
import { DRAW_ALGORITHMS } from './draw-commitment.js';
import { ProjectSummarySchema } from './project.js';

export const RaffleStatusSchema = StringEnum(RAFFLE_STATUSES);

/**
 * The public beacon round the draw mixes in, fixed when the raffle closes (decision 0022). Not a
 * field of the spec's tables: an addition, which the spec's resources allow.
 */
const BeaconRound = () =>
  Type.Integer({
    minimum: 1,
    description:
      'The drand beacon round whose randomness the draw mixes in: the round current when the raffle closed, plus 2, so nobody (the team included) knows it while entries are taken. Fixed at close; null until then, after a cancellation, and for raffles closed before beacon rounds existed.',
  });

/** The algorithm a raffle's draw commitment is for, bound at publish (issue 34). */
const DrawAlgorithm = () =>
  StringEnum(
    DRAW_ALGORITHMS,
    'The draw algorithm the commitment is for, bound at publish: `es-hmac-sha256-drand-v1` for weighted raffles. A verifier refuses a proof of any other. Null (absent on the public raffle) for other mechanics and for raffles published before it was bound.',
  );

/** The workspace raffle list item as the spec's table lists it, plus `beaconRound`. */
export const WorkspaceRaffleItemSchema = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    title: Type.String(),
    mechanic: StringEnum(RAFFLE_MECHANICS),
    allocationType: StringEnum(ALLOCATION_TYPES),
    visibility: StringEnum(RAFFLE_VISIBILITIES),
    status: RaffleStatusSchema,
    spots: Type.Integer({ minimum: 1 }),
    chain: Type.Optional(Nullable(Type.String())),
    startsAt: Type.Optional(Nullable(DateTime())),
    endsAt: Type.Optional(Nullable(DateTime())),
    publishedAt: Type.Optional(Nullable(DateTime())),
    openedAt: Type.Optional(Nullable(DateTime())),
    closedAt: Type.Optional(Nullable(DateTime())),
    beaconRound: Type.Optional(Nullable(BeaconRound())),
    finalizedAt: Type.Optional(Nullable(DateTime())),
    canonicalProject: Type.Optional(Nullable(Type.Ref(ProjectSummarySchema))),
  },
  { $id: 'WorkspaceRaffleItem', additionalProperties: false },
);
export type WorkspaceRaffleItem = Static<typeof WorkspaceRaffleItemSchema>;

export const PublicRequirementSchema = Type.Object(
  { id: Type.String(), type: StringEnum(REQUIREMENT_TYPES), label: Type.String() },
  { $id: 'PublicRequirement', additionalProperties: false },
);

/** A workspace raffle read by id: the list item plus what the list leaves out. */
export const WorkspaceRaffleSchema = Type.Object(
  {
    ...WorkspaceRaffleItemSchema.properties,
    description: Nullable(Type.String()),
    allowAutoEntry: Type.Boolean(),
    requirements: Type.Array(Type.Ref(PublicRequirementSchema)),
    drawCommitment: Nullable(Type.String({ description: 'sha256 of the draw seed, hex; set at publish.' })),
    drawAlgorithm: Type.Optional(Nullable(DrawAlgorithm())),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'WorkspaceRaffle', additionalProperties: false },
);
export type WorkspaceRaffle = Static<typeof WorkspaceRaffleSchema>;

export const WorkspaceSummarySchema = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    name: Type.String(),
    logoUrl: Type.Optional(Type.String()),
  },
  { $id: 'WorkspaceSummary', additionalProperties: false },
);
export type WorkspaceSummary = Static<typeof WorkspaceSummarySchema>;

/**
 * The public raffle item. The spec leaves required fields open; these are always present,
 * and a field typed without "or null" is absent when it has no value, never null.
 */
export const PublicRaffleItemSchema = Type.Object(
  {
    id: Type.String(),
    slug: Type.String(),
    title: Type.String(),
    mechanic: StringEnum(RAFFLE_MECHANICS),
    allocationType: StringEnum(ALLOCATION_TYPES),
    status: RaffleStatusSchema,
    spots: Type.Integer({ minimum: 1 }),
    startsAt: Type.Optional(DateTime()),
    endsAt: Type.Optional(DateTime()),
    allowAutoEntry: Type.Boolean(),
    description: Type.Optional(Type.String()),
    chain: Type.Optional(Type.String()),
    canonicalProject: Type.Optional(
      Type.Object(
        { id: Type.String(), slug: Type.String(), name: Type.String(), logoUrl: Type.Optional(Type.String()) },
        { additionalProperties: false },
      ),
    ),
    workspace: Type.Ref(WorkspaceSummarySchema),
  },
  { $id: 'PublicRaffleItem', additionalProperties: false },
);
export type PublicRaffleItem = Static<typeof PublicRaffleItemSchema>;

/** One raffle by slug for a personal key: the public item plus its public requirements. */
export const PublicRaffleSchema = Type.Object(
  {
    ...PublicRaffleItemSchema.properties,
    visibility: StringEnum(RAFFLE_VISIBILITIES),
    requirements: Type.Array(Type.Ref(PublicRequirementSchema)),
    drawCommitment: Type.Optional(Type.String()),
    drawAlgorithm: Type.Optional(DrawAlgorithm()),
    publishedAt: Type.Optional(DateTime()),
    openedAt: Type.Optional(DateTime()),
    closedAt: Type.Optional(DateTime()),
    /** Absent until the raffle closes, like the other times of this view. */
    beaconRound: Type.Optional(BeaconRound()),
    finalizedAt: Type.Optional(DateTime()),
  },
  { $id: 'PublicRaffle', additionalProperties: false },
);
export type PublicRaffle = Static<typeof PublicRaffleSchema>;
