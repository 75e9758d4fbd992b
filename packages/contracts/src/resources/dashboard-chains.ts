import { Type, type Static } from '@sinclair/typebox';
import { ENTRY_STATUSES } from '../domain-values.js';
import { StringEnum } from '../primitives.js';
import { RequirementResultSchema, type RequirementResult } from './entry.js';

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
 * One entry's requirement verdicts as its entrant sees them (the sanitized entry's `requirements`):
 * pass or fail and a `detail` about the entrant only. Never the evidence, never a wallet.
 */
export const EntryRequirementResultsSchema = Type.Object(
  {
    entryId: Type.String(),
    status: StringEnum(ENTRY_STATUSES),
    requirements: Type.Array(Type.Ref(RequirementResultSchema), { description: "In the raffle's order of its requirements." }),
  },
  { $id: 'EntryRequirementResults', additionalProperties: false },
);
export type EntryRequirementResults = { entryId: string; status: (typeof ENTRY_STATUSES)[number]; requirements: RequirementResult[] };
