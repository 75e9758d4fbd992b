import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PlatformChainListSchema, type PlatformChain } from '@raffle/contracts';
import { Type } from '@sinclair/typebox';
import { chainReaderOf } from '../../decorations.js';
import { managementResponses } from '../responses.js';

/**
 * The chains this deployment reads (CHAIN_RPC_URLS), so the console offers only chains an
 * on-chain requirement can use. A chain whose RPC does not answer is still listed, with a null
 * chain id: the list is the configuration, and a slow RPC must not turn it into a 5xx.
 */
const dashboardChainRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/chains',
    {
      schema: {
        operationId: 'listChains',
        tags: ['Dashboard chains'],
        summary: 'The chains on-chain requirements can read',
        description:
          'Any signed-in user. The names `token_balance` and `native_balance` requirements take as `params.chain`, in configuration order, each with the EIP-155 chain id its RPC answers (null when it did not answer just now). Not paginated: it is the deployment\'s configuration.',
        response: managementResponses(200, Type.Ref(PlatformChainListSchema)),
      },
    },
    async (request) => {
      const reader = chainReaderOf(app);
      const data = await Promise.all(
        reader.chains.map(async (name): Promise<PlatformChain> => {
          try {
            return { name, chainId: await reader.chainIdOf(name) };
          } catch (error) {
            // The chain's name only: an RPC URL may carry a provider's key.
            request.log.warn({ chain: name, reason: error instanceof Error ? error.name : 'unknown' }, 'chain did not answer its chain id');
            return { name, chainId: null };
          }
        }),
      );
      return { data };
    },
  );
};

export default dashboardChainRoutes;
