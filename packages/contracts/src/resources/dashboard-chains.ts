import { Type, type Static } from '@sinclair/typebox';
import { ENTRY_STATUSES, REQUIREMENT_TYPES } from '../domain-values.js';
import { StringEnum } from '../primitives.js';

/** One chain this deployment reads (CHAIN_RPC_URLS): what a token_balance or native_balance requirement may name. */
export const PlatformChainSchema = Type.Object(
  {
    name: Type.String({ description: 'The name requirements use as `params.chain`, e.g. `anvil` or `ethereum`.', examples: ['anvil'] }),
    chainId: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description: "The chain's EIP-155 id as its RPC answers it; null when the RPC did not answer just now (the chain stays listed).",
      examples: [31337],
    }),
  },
  { $id: 'PlatformChain', additionalProperties: false },
);
export type PlatformChain = Static<typeof PlatformChainSchema>;

/**
 * Every configured chain, in configuration order. Not paginated: it is the deployment's
 * configuration (a handful of names), not data that grows.
 */
export const PlatformChainListSchema = Type.Object(
  { data: Type.Array(Type.Ref(PlatformChainSchema)) },
  { $id: 'PlatformChainList', additionalProperties: false },
);
export type PlatformChainList = { data: PlatformChain[] };

/**
 * One requirement's verdict as a workspace sees it (product.md: `{type, label, passed}`). Not the
 * entrant's `detail`: for an on-chain requirement it tells what their wallets hold ("holds 19999.99
 * ETH"), which is the entrant's to see, not the raffle's team's (issue 34).
 */
export const WorkspaceRequirementResultSchema = Type.Object(
  {
    type: StringEnum(REQUIREMENT_TYPES),
    label: Type.String(),
    passed: Type.Boolean(),
  },
  { $id: 'WorkspaceRequirementResult', additionalProperties: false },
);
export type WorkspaceRequirementResult = Static<typeof WorkspaceRequirementResultSchema>;

/**
 * One entry's requirement verdicts as its workspace sees them: pass or fail per requirement.
 * Never the evidence, never a wallet, never what the entrant holds.
 */
export const EntryRequirementResultsSchema = Type.Object(
  {
    entryId: Type.String(),
    status: StringEnum(ENTRY_STATUSES),
    requirements: Type.Array(Type.Ref(WorkspaceRequirementResultSchema), { description: "In the raffle's order of its requirements." }),
  },
  { $id: 'EntryRequirementResults', additionalProperties: false },
);
export type EntryRequirementResults = { entryId: string; status: (typeof ENTRY_STATUSES)[number]; requirements: WorkspaceRequirementResult[] };
