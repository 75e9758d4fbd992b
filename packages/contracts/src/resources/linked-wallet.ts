import { Type, type Static } from '@sinclair/typebox';
import { PageOf, type Pagination } from '../pagination.js';
import { DateTime, Nullable, StringEnum } from '../primitives.js';

/** How a wallet was proven: an EOA's signature, a contract wallet's ERC-1271 answer, or demo/import data marked verified. */
export const WALLET_PROOFS = ['siwe', 'erc1271', 'seed'] as const;

/** A wallet as its owner sees it in the wallet routes: the profile's fields and how and when it was proven. */
export const LinkedWalletSchema = Type.Object(
  {
    chain: Type.String({ description: 'The chain\'s name on this platform (as raffles and requirements name it), e.g. `ethereum`, `base`.' }),
    chainId: Nullable(Type.Integer({ minimum: 1, description: 'The EIP-155 chain id the message was signed for; null for wallets from before linking existed.' })),
    address: Type.String({ description: 'EIP-55 checksummed for linked wallets.' }),
    verified: Type.Boolean(),
    verifiedAt: Nullable(DateTime('When the signature was last checked.')),
    verifiedBy: Nullable(StringEnum(WALLET_PROOFS, '`siwe`: an EOA signature; `erc1271`: a contract wallet accepted it; `seed`: demo or imported data.')),
  },
  {
    $id: 'LinkedWallet',
    additionalProperties: false,
    examples: [
      {
        chain: 'ethereum',
        chainId: 1,
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        verified: true,
        verifiedAt: '2026-03-14T16:00:00.000Z',
        verifiedBy: 'siwe',
      },
    ],
  },
);
export type LinkedWallet = Static<typeof LinkedWalletSchema>;

export const LinkedWalletPageSchema = PageOf(Type.Ref(LinkedWalletSchema), 'LinkedWalletPage');
export type LinkedWalletPage = { data: LinkedWallet[]; pagination: Pagination };

/** What a wallet signs with: a fresh nonce and the values the message must carry. */
export const WalletLinkNonceSchema = Type.Object(
  {
    nonce: Type.String({ description: 'Single-use; goes in the message\'s `Nonce:` line.' }),
    expiresAt: DateTime('After this the nonce is refused (409 SIWE_MESSAGE_EXPIRED); ask for another.'),
    domain: Type.String({ description: 'The message\'s domain: the console\'s host (and port).' }),
    uri: Type.String({ description: 'The message\'s `URI:` line: the console\'s origin.' }),
    chainIds: Type.Array(Type.Integer({ minimum: 1 }), { description: 'The EIP-155 chain ids a message may name (the chains this platform reads).' }),
    statement: Type.String({ description: 'The statement line to show the signer.' }),
    version: Type.Literal('1'),
  },
  { $id: 'WalletLinkNonce', additionalProperties: false },
);
export type WalletLinkNonce = Static<typeof WalletLinkNonceSchema>;

export const LinkWalletBodySchema = Type.Object(
  {
    message: Type.String({ minLength: 1, maxLength: 4096, description: 'The EIP-4361 message text, exactly as signed.' }),
    signature: Type.String({
      pattern: '^0x[0-9a-fA-F]+$',
      minLength: 4,
      maxLength: 8192,
      description: 'The personal_sign (EIP-191) signature, 0x-prefixed hex; a contract wallet\'s may be longer than 65 bytes.',
    }),
  },
  {
    $id: 'LinkWalletBody',
    additionalProperties: false,
    examples: [
      {
        message:
          '127.0.0.1:3003 wants you to sign in with your Ethereum account:\n0x52908400098527886E0F7030069857D2E4169EE7\n\nLink this wallet to your Raffle account. This proves you hold it; it grants no permission and costs nothing.\n\nURI: http://127.0.0.1:3003\nVersion: 1\nChain ID: 31337\nNonce: 5c1f9b0e2a7d4c3b8e6f1a0d9c2b7e4f\nIssued At: 2026-03-14T16:00:00.000Z',
        signature: `0x${'ab'.repeat(65)}`,
      },
    ],
  },
);
export type LinkWalletBody = Static<typeof LinkWalletBodySchema>;
