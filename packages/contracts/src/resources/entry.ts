import { Type, type Static } from '@sinclair/typebox';
import { ENTRY_SOURCES, ENTRY_STATUSES, REQUIREMENT_TYPES } from '../domain-values.js';
import { DateTime, StringEnum } from '../primitives.js';

export const DuplicateFlagsSchema = Type.Object(
  {
    walletReuse: Type.Optional(Type.Array(Type.String(), { description: "Ids of entries sharing a wallet with this one: a wallet both entries' eligibility counted (the entrant's verified wallets on the raffle's chain and its requirements' chains, on any chain when the raffle names none), or one an entry snapshots." })),
    ipReuse: Type.Optional(Type.Array(Type.String(), { description: 'Ids of entries from the same keyed IP hash.' })),
    discordReuse: Type.Optional(
      Type.Array(Type.String(), { description: "Ids of entries whose entrant linked the same Discord account as this one's, in a raffle whose requirements read Discord." }),
    ),
    xReuse: Type.Optional(Type.Array(Type.String(), { description: "Ids of entries whose entrant linked the same X account as this one's, in a raffle whose requirements read X." })),
  },
  { $id: 'DuplicateFlags', additionalProperties: false },
);
export type DuplicateFlags = Static<typeof DuplicateFlagsSchema>;

/** The workspace raffle entry exactly as the spec's table lists it. */
export const WorkspaceEntrySchema = Type.Object(
  {
    id: Type.String(),
    userId: Type.String(),
    status: StringEnum(ENTRY_STATUSES),
    source: StringEnum(ENTRY_SOURCES),
    entryWeight: Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$', description: 'Decimal string.', examples: ['1'] }),
    walletSnapshot: Type.Optional(Type.String()),
    statusReason: Type.Optional(Type.String()),
    duplicateFlags: Type.Ref(DuplicateFlagsSchema),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'WorkspaceEntry', additionalProperties: false },
);
export type WorkspaceEntry = Static<typeof WorkspaceEntrySchema>;

export const RequirementResultSchema = Type.Object(
  {
    type: StringEnum(REQUIREMENT_TYPES),
    label: Type.String(),
    passed: Type.Boolean(),
    detail: Type.Optional(
      Type.String({
        description:
          'What was found, about the entrant only, e.g. "holds 0 Nebula Pass, needs 1", or why it is not evaluated yet (entry status pending). Never names a wallet.',
      }),
    ),
  },
  { $id: 'RequirementResult', additionalProperties: false },
);
export type RequirementResult = Static<typeof RequirementResultSchema>;

/**
 * The entry as its owner sees it: requirement evaluations reduced to type, label and passed;
 * no duplicate flags, no evidence.
 */
export const SanitizedEntrySchema = Type.Object(
  {
    id: Type.String(),
    raffleId: Type.String(),
    raffleSlug: Type.String(),
    status: StringEnum(ENTRY_STATUSES),
    source: StringEnum(ENTRY_SOURCES),
    entryWeight: Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$', examples: ['1'] }),
    walletSnapshot: Type.Optional(Type.String()),
    statusReason: Type.Optional(Type.String()),
    requirements: Type.Array(Type.Ref(RequirementResultSchema)),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'SanitizedEntry', additionalProperties: false },
);
export type SanitizedEntry = Static<typeof SanitizedEntrySchema>;
