import { Type, type Static } from '@sinclair/typebox';
import { ALLOCATION_TYPES, DELIVERY_STATUSES, RAFFLE_MECHANICS, RAFFLE_SLUG, RAFFLE_VISIBILITIES, REQUIREMENT_TYPES } from '../domain-values.js';
import { DateTime, Nullable, StringEnum } from '../primitives.js';
import { WorkspaceRaffleSchema } from './raffle.js';

const Slug = Type.String({ minLength: RAFFLE_SLUG.minLength, maxLength: RAFFLE_SLUG.maxLength, pattern: RAFFLE_SLUG.pattern, description: 'Globally unique; lowercase words joined by hyphens.', examples: ['nebula-beta-testers'] });

const RequirementId = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', examples: ['wallet-on-ethereum'], description });

const requirementFields = {
  type: StringEnum(REQUIREMENT_TYPES),
  label: Type.String({ minLength: 1, maxLength: 200, examples: ['A wallet connected on Ethereum'] }),
  params: Type.Record(Type.String(), Type.Unknown(), {
      default: {},
      description:
        'Per type: wallet_connected {chain}, account_age_days {min}, holds_role {role}; email_verified and workspace_member take none; token_balance {chain, contract, standard: erc20 | erc721 | erc1155, tokenId (erc1155 only), min} and native_balance {chain, min}, amounts as decimal strings in base units, summed over the entrant\'s verified wallets on that chain. Read with the entrant\'s own linked account (GET /api/dashboard/me/connections): discord_member {guildId} (a snowflake, the server\'s id), discord_role {guildId, roleIds: 1–20 role snowflakes, match: any | all}, x_follows {userId} (the X account\'s numeric id) and x_account_age_days {min} (1–36500 days); an entrant without a linked account, or whose link was revoked, fails them, and while the provider is down or rate-limiting the entry is pending. Any requirement may set optional: true, and then a multiplier (1–100) applied to the entry weight when it passes; the multipliers of one raffle multiply to at most 1000000 (an entry meeting every optional requirement weighs at most that), or the raffle is refused with VALIDATION_FAILED.',
    examples: [{ chain: 'ethereum' }],
  }),
};

/** A requirement as stored and shown: its id is always there (given, or generated at create/update). */
export const RaffleRequirementSchema = Type.Object(
  { id: RequirementId('Names the requirement on entries\' requirement results; unique within the raffle.'), ...requirementFields },
  { $id: 'RaffleRequirement', additionalProperties: false },
);

/** A requirement as a create or update sends it: the id may be left to the server. */
export const RaffleRequirementInputSchema = Type.Object(
  {
    id: Type.Optional(
      RequirementId('Unique within the raffle; keep it across edits to keep naming the same requirement. Omitted: generated from the type, `<type>-<n>` (e.g. `token_balance-2`), unique in the list.'),
    ),
    ...requirementFields,
  },
  { $id: 'RaffleRequirementInput', additionalProperties: false },
);
export type RaffleRequirementInput = Static<typeof RaffleRequirementInputSchema>;

export const RaffleSettingsSchema = Type.Object(
  {
    autoDraw: Type.Boolean({ description: 'Draw as soon as the raffle closes (not for application raffles).' }),
    autoFinalize: Type.Boolean({ description: 'Finalize as soon as the raffle is drawn.' }),
    excludeFlaggedDuplicates: Type.Boolean({ description: 'Leave entries with duplicate flags out of the draw.' }),
    allowlistQuantity: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Allowlist raffles: what each winner\'s leaf allows them to mint (the leaf\'s uint256). Default 1.' }),
    allowlistPublic: Type.Boolean({ description: 'Allowlist raffles: the keyless public route lists every leaf with its proof, not only the root. Default false.' }),
    walletDeadline: Nullable(
      DateTime('Allowlist raffles: until when winners may name the wallet their leaf is for (one of their verified wallets on the raffle\'s chain); the allowlist is built after it. Null (default): the wallet their entry snapshotted.'),
    ),
  },
  { $id: 'RaffleSettings', additionalProperties: false },
);
export type RaffleSettingsValue = Static<typeof RaffleSettingsSchema>;

const editableFields = {
  title: Type.String({ minLength: 1, maxLength: 200 }),
  description: Nullable(Type.String({ maxLength: 10_000 })),
  allocationType: StringEnum(ALLOCATION_TYPES),
  visibility: StringEnum(RAFFLE_VISIBILITIES),
  spots: Type.Integer({ minimum: 1, maximum: 100_000 }),
  chain: Nullable(Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z0-9-]+$', examples: ['ethereum'] })),
  allowAutoEntry: Type.Boolean(),
  requirements: Type.Array(Type.Ref(RaffleRequirementInputSchema), { maxItems: 20 }),
  settings: Type.Partial(Type.Object(RaffleSettingsSchema.properties), { additionalProperties: false }),
  // minLength: an empty id once slipped past the project check and failed the foreign key (a 500).
  canonicalProjectId: Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'A project of this workspace; null for none.' })),
  startsAt: Nullable(DateTime('When the scheduler opens the raffle; null or past opens it at publish.')),
  endsAt: Nullable(DateTime('When the scheduler closes the raffle; null means it is closed by hand.')),
};

export const CreateRaffleBodySchema = Type.Object(
  {
    slug: Slug,
    mechanic: StringEnum(RAFFLE_MECHANICS),
    title: editableFields.title,
    allocationType: editableFields.allocationType,
    visibility: editableFields.visibility,
    spots: editableFields.spots,
    description: Type.Optional(editableFields.description),
    chain: Type.Optional(editableFields.chain),
    allowAutoEntry: Type.Optional(editableFields.allowAutoEntry),
    requirements: Type.Optional(editableFields.requirements),
    settings: Type.Optional(editableFields.settings),
    canonicalProjectId: Type.Optional(editableFields.canonicalProjectId),
    startsAt: Type.Optional(editableFields.startsAt),
    endsAt: Type.Optional(editableFields.endsAt),
  },
  { $id: 'CreateRaffleBody', additionalProperties: false },
);
export type CreateRaffleBody = Static<typeof CreateRaffleBodySchema>;

/** Any subset; which fields may still change depends on the status (see the route's description). */
export const UpdateRaffleBodySchema = Type.Partial(
  Type.Object({ slug: Slug, mechanic: StringEnum(RAFFLE_MECHANICS), ...editableFields }),
  { $id: 'UpdateRaffleBody', additionalProperties: false, minProperties: 1 },
);
export type UpdateRaffleBody = Static<typeof UpdateRaffleBodySchema>;

/** A raffle as its team sees it: the workspace raffle plus settings, full requirements and every lifecycle time. */
export const DashboardRaffleSchema = Type.Object(
  {
    ...WorkspaceRaffleSchema.properties,
    requirements: Type.Array(Type.Ref(RaffleRequirementSchema)),
    settings: Type.Ref(RaffleSettingsSchema),
    drawnAt: Nullable(DateTime()),
    cancelledAt: Nullable(DateTime()),
    entriesDigest: Nullable(Type.String({ description: 'sha256 of the drawn entries; set at draw.' })),
  },
  { $id: 'DashboardRaffle', additionalProperties: false },
);
export type DashboardRaffle = Static<typeof DashboardRaffleSchema>;

export const DrawRaffleBodySchema = Type.Object(
  { entryIds: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 100_000, description: 'Application raffles only: the selected entries in position order.' })) },
  { $id: 'DrawRaffleBody', additionalProperties: false },
);

export const ReasonBodySchema = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500 }) },
  { $id: 'ReasonBody', additionalProperties: false },
);

export const RerollWinBodySchema = Type.Object(
  { entryId: Type.Optional(Type.String({ maxLength: 64, description: 'Application raffles only: the replacement entry.' })) },
  { $id: 'RerollWinBody', additionalProperties: false },
);

export const SetDeliveryBodySchema = Type.Object(
  {
    deliveryStatus: StringEnum(DELIVERY_STATUSES.filter((s) => s !== 'not_applicable')),
    deliveryNote: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  },
  { $id: 'SetDeliveryBody', additionalProperties: false },
);
