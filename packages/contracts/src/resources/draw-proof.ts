import { Type, type Static } from '@sinclair/typebox';

/**
 * The exact formats of an entry's fields in a proof (docs/decisions/0021-unambiguous-draw-proofs.md):
 * none holds `:` or a newline, so the canonical lines read back one way only. The SDK's verifier
 * checks the same formats (packages/sdk/src/draw/entry-format.ts).
 */
export const DRAW_ENTRY_ID_PATTERN = '^ent_[0-9A-HJKMNP-TV-Z]{26}$';
export const DRAW_USER_ID_PATTERN = '^usr_[0-9A-HJKMNP-TV-Z]{26}$';
export const DRAW_WEIGHT_PATTERN = '^(?:[1-9][0-9]{0,13}(?:\\.[0-9]{0,5}[1-9])?|0\\.[0-9]{0,5}[1-9])$';

const Sha256Hex = (description: string) => Type.String({ pattern: '^[0-9a-f]{64}$', description, examples: ['9f2c4e1a7b3d5f6081a2c3e4b5d6f708192a3b4c5d6e7f8091a2b3c4d5e6f708'] });

const Hex = (bytes: number, description: string) => Type.String({ pattern: `^[0-9a-f]{${bytes * 2}}$`, description });

/**
 * The beacon round an `es-hmac-sha256-drand-v1` draw mixed in, with the chain that signed it, so a
 * verifier checks the signature against a chain it trusts and the round against the close.
 */
export const DrawBeaconSchema = Type.Object(
  {
    chainHash: Hex(32, "The drand chain's hash: drand's `quicknet` is 52db9ba7…e971; a local beacon has its own."),
    publicKey: Hex(96, "The chain's BLS public key (G2, compressed)."),
    period: Type.Integer({ minimum: 1, description: 'Seconds between rounds.' }),
    genesisTime: Type.Integer({ description: 'Unix seconds of round 1.' }),
    round: Type.Integer({ minimum: 1, description: 'The round: `roundAt(closedAt) + 2`, where `roundAt(t) = floor((t − genesisTime) / period) + 1`.' }),
    signature: Hex(48, "The chain's BLS signature of the round (G1, compressed), scheme `bls-unchained-g1-rfc9380`."),
    randomness: Hex(32, 'sha256 of the signature: what the draw key mixes in.'),
  },
  { $id: 'DrawBeacon', additionalProperties: false },
);
export type DrawBeaconBody = Static<typeof DrawBeaconSchema>;

/** A decimal block number: no sign, no leading zeros, so each number has one spelling (decision 0021's rule). */
export const DRAW_BLOCK_NUMBER_PATTERN = '^(?:0|[1-9][0-9]{0,77})$';
export const DRAW_BLOCK_HASH_PATTERN = '^0x[0-9a-f]{64}$';
/** As `new Date().toISOString()` writes it: UTC, milliseconds, `Z`. */
export const DRAW_BLOCK_TIMESTAMP_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$';
export const DRAW_CHAIN_NAME_PATTERN = '^[a-z0-9-]{1,32}$';

/**
 * The block of one chain at which the draw re-read the raffle's on-chain requirements: the first
 * block whose timestamp is at or after `closedAt` (decision 0028). Anyone with an archive node of
 * that chain can read every balance at it; any node can confirm the hash and that it is the first.
 */
export const DrawEligibilityBlockSchema = Type.Object(
  {
    chain: Type.String({ pattern: DRAW_CHAIN_NAME_PATTERN, description: 'The chain as requirements name it (`params.chain`).' }),
    chainId: Type.Integer({ minimum: 1, description: "The chain's EIP-155 id." }),
    number: Type.String({ pattern: DRAW_BLOCK_NUMBER_PATTERN, description: 'The block number, as a decimal string.', examples: ['19000000'] }),
    hash: Type.String({ pattern: DRAW_BLOCK_HASH_PATTERN, description: "The block's hash (lowercase hex)." }),
    timestamp: Type.String({ pattern: DRAW_BLOCK_TIMESTAMP_PATTERN, format: 'date-time', description: "The block's timestamp (UTC, milliseconds): at or after `closedAt`." }),
  },
  { $id: 'DrawEligibilityBlock', additionalProperties: false },
);
export type DrawEligibilityBlockBody = Static<typeof DrawEligibilityBlockSchema>;

/**
 * Everything needed to recompute a weighted draw (product.md, "Verifiable draws"): the seed the
 * commitment promised, the frozen eligible set the digest covers, and the winners it produced.
 */
export const DrawProofSchema = Type.Object(
  {
    algorithm: Type.String({
      description:
        'The draw algorithm: `es-hmac-sha256-drand-v1` (Efraimidis–Spirakis keys from HMAC-SHA256 keyed with the seed mixed with a drand beacon round fixed at the close), or `es-hmac-sha256-v1` for raffles drawn before beacon rounds (keyed with the seed alone).',
    }),
    closedAt: Type.Optional(Type.String({ format: 'date-time', description: 'When entries closed: the beacon round is `roundAt(closedAt) + 2` of the chain that signed it.' })),
    beacon: Type.Optional(DrawBeaconSchema),
    eligibilityBlocks: Type.Optional(
      Type.Array(DrawEligibilityBlockSchema, {
        description:
          "Present when the raffle's requirements read a chain: per chain (sorted by name, each once), the block at which the draw re-evaluated them, the first whose timestamp is at or after `closedAt`. Checking who held what at it needs an archive node of that chain.",
      }),
    ),
    drawCommitment: Sha256Hex('sha256 of the seed, public since the raffle was published.'),
    seed: Sha256Hex('The 32-byte secret seed (hex), revealed once the raffle is drawn.'),
    entriesDigest: Sha256Hex('sha256 of the eligible entries\' canonical lines `id:userId:weight\\n`, in id order.'),
    spots: Type.Integer({
      minimum: 1,
      description: 'The raffle\'s spots: the draw selects min(spots, number of entries) winners, so a proof with fewer is refused.',
    }),
    entries: Type.Array(
      Type.Object(
        {
          id: Type.String({ pattern: DRAW_ENTRY_ID_PATTERN }),
          userId: Type.String({ pattern: DRAW_USER_ID_PATTERN }),
          weight: Type.String({
            pattern: DRAW_WEIGHT_PATTERN,
            description: 'A positive decimal as in the canonical line: at most 14 whole digits and 6 decimals, without leading or trailing zeros.',
            examples: ['1', '2.5'],
          }),
        },
        { additionalProperties: false },
      ),
      { description: 'Every eligible entry of the draw, in id order, as frozen when it ran.' },
    ),
    winners: Type.Array(
      Type.Object({ entryId: Type.String({ pattern: DRAW_ENTRY_ID_PATTERN }), position: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
      { description: 'The winners the draw selected, by position; later disqualifications do not change them (they are listed in `disqualifiedWinners`).' },
    ),
    disqualifiedWinners: Type.Optional(
      Type.Array(
        Type.Object(
          {
            entryId: Type.String({ pattern: DRAW_ENTRY_ID_PATTERN }),
            position: Type.Integer({ minimum: 1 }),
            disqualifiedAt: Type.String({ pattern: DRAW_BLOCK_TIMESTAMP_PATTERN, format: 'date-time', description: 'When the team disqualified this win (UTC, milliseconds).' }),
            replacedAt: Type.Optional(
              Type.String({ pattern: DRAW_BLOCK_TIMESTAMP_PATTERN, format: 'date-time', description: 'When its position was rerolled to the next entry of the draw order; absent while it is not.' }),
            ),
          },
          { additionalProperties: false },
        ),
        {
          description:
            "Present once a winner was disqualified after the draw (issue 34): every such win, the draw's or a reroll's, in the order they were disqualified. Each changes the proof's body, so its `ETag`.",
        },
      ),
    ),
    rerolledWinners: Type.Optional(
      Type.Array(
        Type.Object(
          {
            entryId: Type.String({ pattern: DRAW_ENTRY_ID_PATTERN }),
            position: Type.Integer({ minimum: 1 }),
            selectedAt: Type.String({ pattern: DRAW_BLOCK_TIMESTAMP_PATTERN, format: 'date-time', description: 'When the reroll selected it (UTC, milliseconds).' }),
          },
          { additionalProperties: false },
        ),
        {
          description:
            "Present once a position was rerolled: the entries that took freed positions, in the order they were selected. A reroll takes the next valid entry of the draw's own order (ranking the same entries with the same key), so each is an entry of this proof ranked below the draw's winners.",
        },
      ),
    ),
  },
  { $id: 'DrawProof', additionalProperties: false },
);
export type DrawProofBody = Static<typeof DrawProofSchema>;

/**
 * The beacon chain this platform pins (`GET /public/v1/beacon`): what a verifier adds to the chains
 * it trusts when it trusts this platform's beacon. drand's `quicknet` in production; a local
 * beacon's own chain on installs without the internet.
 */
export const PlatformBeaconChainSchema = Type.Object(
  {
    chainHash: Hex(32, "The chain's hash, as draw proofs name it."),
    publicKey: Hex(96, "The chain's BLS public key (G2, compressed): the key every round's signature is checked against."),
    period: Type.Integer({ minimum: 1, description: 'Seconds between rounds.' }),
    genesisTime: Type.Integer({ description: 'Unix seconds of round 1.' }),
    scheme: Type.Literal('bls-unchained-g1-rfc9380', { description: 'Unchained rounds, G1 signatures, RFC 9380 hash-to-curve.' }),
    quicknet: Type.Boolean({ description: "Whether this is drand's League of Entropy `quicknet` (otherwise a beacon this platform's operator runs)." }),
  },
  {
    $id: 'PlatformBeaconChain',
    additionalProperties: false,
    examples: [
      {
        chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
        publicKey:
          '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
        period: 3,
        genesisTime: 1692803367,
        scheme: 'bls-unchained-g1-rfc9380',
        quicknet: true,
      },
    ],
  },
);
export type PlatformBeaconChainBody = Static<typeof PlatformBeaconChainSchema>;
