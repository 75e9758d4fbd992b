import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DashboardPageQuerySchema, LinkedWalletPageSchema, LinkedWalletSchema, LinkWalletBodySchema, WalletLinkNonceSchema } from '@raffle/contracts';
import { issueWalletLinkNonce, linkWallet, listMyWallets, unlinkWallet } from '@raffle/domain';
import { pathString } from '@raffle/service-kit';
import { Type } from '@sinclair/typebox';
import { cursorsOf, dashboardUserIdOf, walletLinksOf } from '../../decorations.js';
import { RATE_LIMIT_BUCKETS } from '../../plugins/rate-limit.js';
import { managementResponses } from '../responses.js';
import { noContentResponses } from '../shared/no-content.js';
import { pageRequestOf } from '../shared/page-request.js';

const BASE = '/me/wallets';
const TAGS = ['Dashboard wallets'];

const WalletParams = Type.Object(
  { chain: pathString('The chain\'s name, as the wallet list shows it'), address: pathString('The address (an EVM address in any letter case)') },
  { additionalProperties: false },
);

const SIWE_CODES = [
  'SIWE_MESSAGE_INVALID',
  'SIWE_DOMAIN_MISMATCH',
  'SIWE_CHAIN_UNSUPPORTED',
  'SIWE_NONCE_INVALID',
  'SIWE_MESSAGE_EXPIRED',
  'SIWE_SIGNATURE_INVALID',
  'CHAIN_UNAVAILABLE',
];

/**
 * The signed-in user's wallets, proven by Sign-In with Ethereum (EIP-4361): ask a nonce, sign the
 * message in any wallet, send message and signature. Every route acts on the session's own user
 * only, so there is nothing of another user's to reach (decision 0026).
 */
const dashboardWalletRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const linking = () => ({ ...walletLinksOf(app) });

  app.post(
    `${BASE}/nonce`,
    {
      schema: {
        operationId: 'createWalletLinkNonce',
        tags: TAGS,
        summary: 'A single-use nonce, and the values the message to sign must carry',
        description:
          'The nonce expires after `SIWE_NONCE_TTL_SECONDS` (10 minutes by default). Build an EIP-4361 message with `domain`, `uri`, one of `chainIds`, this `nonce` and `statement`, sign it with the wallet (personal_sign), and send both to `POST /api/dashboard/me/wallets`.',
        response: managementResponses(201, Type.Ref(WalletLinkNonceSchema)),
      },
      config: { rateLimitBuckets: [RATE_LIMIT_BUCKETS.walletLink] },
    },
    async (request, reply) => {
      const nonce = await issueWalletLinkNonce(app.database.db, {
        userId: dashboardUserIdOf(request)!,
        ...linking(),
        requestOrigin: request.headers.origin,
      });
      return reply.status(201).send(nonce);
    },
  );

  app.post(
    BASE,
    {
      schema: {
        operationId: 'linkWallet',
        tags: TAGS,
        'x-error-codes': SIWE_CODES,
        summary: 'Link a wallet by its signature of a Sign-In with Ethereum message',
        description:
          'Checks, in this order: the message is EIP-4361, with no field written twice (400 `SIWE_MESSAGE_INVALID`); a 65-byte signature has a low `s` (EIP-2; 400 `SIWE_SIGNATURE_INVALID`); its domain and URI are the console\'s (403 `SIWE_DOMAIN_MISMATCH`); its chain id is a chain this platform reads (400 `SIWE_CHAIN_UNSUPPORTED`); its nonce was issued to the caller and not used (409 `SIWE_NONCE_INVALID`) — the nonce is used up from here on, whatever follows; neither the nonce nor the message has expired, nor is the message dated in the future or before its nonce was issued (409 `SIWE_MESSAGE_EXPIRED`); the signature is the address\'s, or its contract wallet accepts it through ERC-1271 (400 `SIWE_SIGNATURE_INVALID`). Linking a wallet already linked refreshes `verifiedAt`. The same wallet may be linked by several users; raffles flag entries sharing a wallet.',
        body: Type.Ref(LinkWalletBodySchema),
        response: managementResponses(201, Type.Ref(LinkedWalletSchema)),
      },
      config: { rateLimitBuckets: [RATE_LIMIT_BUCKETS.walletLink] },
    },
    async (request, reply) => {
      const wallet = await linkWallet(app.database.db, { userId: dashboardUserIdOf(request)!, ...linking(), body: request.body });
      return reply.status(201).send(wallet);
    },
  );

  app.get(
    BASE,
    {
      schema: {
        operationId: 'listMyWallets',
        tags: TAGS,
        summary: "The caller's wallets, by chain then address",
        querystring: DashboardPageQuerySchema,
        response: managementResponses(200, Type.Ref(LinkedWalletPageSchema)),
      },
    },
    async (request) => listMyWallets(app.database.db, { userId: dashboardUserIdOf(request)!, ...pageRequestOf(request.query, cursorsOf(app)) }),
  );

  app.delete(
    `${BASE}/:chain/:address`,
    {
      schema: {
        operationId: 'unlinkWallet',
        tags: TAGS,
        'x-error-codes': ['WALLET_NOT_FOUND'],
        summary: 'Unlink one of the caller\'s wallets',
        description: 'The wallet stops counting for the caller\'s requirements from now on; linking it again needs a new signature.',
        params: WalletParams,
        response: noContentResponses(),
      },
    },
    async (request, reply) => {
      await unlinkWallet(app.database.db, { userId: dashboardUserIdOf(request)!, chain: request.params.chain, address: request.params.address });
      return reply.status(204).send(null);
    },
  );
};

export default dashboardWalletRoutes;
