import { Type, type Static } from '@sinclair/typebox';
import { PaginationSchema } from '../pagination.js';
import { DateTime, Nullable, StringEnum } from '../primitives.js';

// A raffle's allowlist (issue 35): its winners as a Merkle root a mint contract checks, in
// OpenZeppelin's StandardMerkleTree format, with every version on the public record.

// Lengths beside the patterns: a client (or the schema fuzzer) that reads only the length knows it too.
const Hash = (description: string) =>
  Type.String({ pattern: '^0x[0-9a-f]{64}$', minLength: 66, maxLength: 66, description, examples: ['0x1dd0e8b7e3c2f0a4b6d8e9f1a2c3b4d5e6f708192a3b4c5d6e7f8091a2b3c4d5'] });
const Address = (description: string) => Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', minLength: 42, maxLength: 42, description, examples: ['0x8ba1f109551bD432803012645Ac136ddd64DBA72'] });
const Quantity = Type.String({ pattern: '^[1-9][0-9]{0,77}$', minLength: 1, maxLength: 78, description: 'The uint256 the leaf allows its wallet to mint, as a decimal string.', examples: ['1'] });

/** How each leaf is encoded: what MerkleProof.verify in a contract must hash. */
export const ALLOWLIST_LEAF_ENCODING_VALUE = ['address', 'uint256'] as const;
const LeafEncoding = Type.Array(StringEnum(ALLOWLIST_LEAF_ENCODING_VALUE), {
  minItems: 2,
  maxItems: 2,
  examples: [[...ALLOWLIST_LEAF_ENCODING_VALUE]],
  description:
    'Always `["address","uint256"]`: a leaf is keccak256(bytes.concat(keccak256(abi.encode(address, quantity)))) (StandardMerkleTree, double-hashed), and pairs are hashed sorted.',
});

/** Where a raffle's allowlist is: the status a client waits on. */
export const ALLOWLIST_STATUSES = ['not_applicable', 'awaiting_finalize', 'awaiting_wallets', 'building', 'published'] as const;

export const AllowlistVersionSchema = Type.Object(
  {
    version: Type.Integer({ minimum: 1, description: '1 for the list built at finalize, +1 each time the finalized winners change (a disqualification or reroll).' }),
    root: Hash('The Merkle root; 0x00…00 for a version with no leaves (no proof verifies against it).'),
    count: Type.Integer({ minimum: 0, description: 'Leaves in this version: one per winning wallet.' }),
    unlistedWinners: Type.Integer({ minimum: 0, description: 'Finalized winners left off because they had no wallet on the raffle\'s chain.' }),
    reason: StringEnum(['finalized', 'winners_changed'] as const, 'Why the version was built.'),
    publishedAt: DateTime(),
  },
  { $id: 'AllowlistVersion', additionalProperties: false },
);
export type AllowlistVersion = Static<typeof AllowlistVersionSchema>;

export const AllowlistSchema = Type.Object(
  {
    raffleId: Type.String(),
    slug: Type.String(),
    status: StringEnum(
      ALLOWLIST_STATUSES,
      '`not_applicable`: the raffle\'s allocation is not an allowlist; `awaiting_finalize`: not finalized yet; `awaiting_wallets`: finalized, winners may name a wallet until `walletDeadline`, then it is built; `building`: a version is being built (the first, or after the winners changed; `current` is still the previous one); `published`: `current` is the list.',
    ),
    leafEncoding: LeafEncoding,
    quantityPerWinner: Type.Integer({ minimum: 1, description: 'The raffle setting `allowlistQuantity`: each winner\'s leaf quantity.' }),
    walletDeadline: Nullable(DateTime('Until when winners may name the wallet their leaf is for; null: the wallet their entry snapshotted.')),
    leavesPublic: Type.Boolean({ description: 'Whether the keyless public route lists every leaf (the raffle setting `allowlistPublic`).' }),
    current: Nullable(Type.Ref(AllowlistVersionSchema, { description: 'The latest published version; null before the first.' })),
    versions: Type.Array(Type.Ref(AllowlistVersionSchema), { description: 'Every published version, newest first: none is ever replaced or removed.' }),
  },
  { $id: 'Allowlist', additionalProperties: false },
);
export type Allowlist = Static<typeof AllowlistSchema>;

export const AllowlistLeafSchema = Type.Object(
  {
    address: Address('The wallet, EIP-55 checksummed.'),
    quantity: Quantity,
    proof: Type.Array(Hash('A sibling node.'), { description: 'The Merkle proof, leaf end first: what `MerkleProof.verify(proof, root, leaf)` takes.' }),
  },
  { $id: 'AllowlistLeaf', additionalProperties: false },
);
export type AllowlistLeaf = Static<typeof AllowlistLeafSchema>;

export const AllowlistLeafPageSchema = Type.Object(
  {
    version: Type.Integer({ minimum: 1, description: 'The version these leaves belong to.' }),
    root: Hash('That version\'s root.'),
    data: Type.Array(Type.Ref(AllowlistLeafSchema), { description: 'In address order.' }),
    pagination: Type.Ref(PaginationSchema),
  },
  { $id: 'AllowlistLeafPage', additionalProperties: false },
);

/** A winner's own leaf: everything a mint call needs. */
export const AllowlistProofSchema = Type.Object(
  {
    raffleId: Type.String(),
    slug: Type.String(),
    version: Type.Integer({ minimum: 1 }),
    root: Hash('The current version\'s root.'),
    leafEncoding: LeafEncoding,
    address: Address('The wallet the leaf is for.'),
    quantity: Quantity,
    proof: Type.Array(Hash('A sibling node.'), { description: 'Leaf end first.' }),
  },
  { $id: 'AllowlistProof', additionalProperties: false },
);
export type AllowlistProof = Static<typeof AllowlistProofSchema>;

export const NameAllowlistWalletBodySchema = Type.Object(
  { address: Address('One of your verified wallets (linked by signature) on the raffle\'s chain.') },
  { $id: 'NameAllowlistWalletBody', additionalProperties: false },
);

export const AllowlistWalletSchema = Type.Object(
  {
    raffleId: Type.String(),
    address: Address('The wallet your leaf will be for.'),
    walletDeadline: DateTime('You may change it until then; the allowlist is built after it.'),
  },
  { $id: 'AllowlistWallet', additionalProperties: false },
);

/** The `raffle.allowlist_published` event's data. */
export const AllowlistPublishedSchema = Type.Object(
  {
    raffleId: Type.String(),
    slug: Type.String(),
    leafEncoding: LeafEncoding,
    ...AllowlistVersionSchema.properties,
  },
  { $id: 'AllowlistPublished', additionalProperties: false },
);
export type AllowlistPublished = Static<typeof AllowlistPublishedSchema>;
