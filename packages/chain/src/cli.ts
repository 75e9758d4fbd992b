/**
 * A local chain for people and for `start`: starts anvil, deploys the demo contracts, prints
 *   { rpcUrl, CHAIN_RPC_URLS, contracts: { erc20, erc721, erc1155 } }
 * as one JSON line on stdout, and runs until interrupted.
 *   node --conditions=development --import tsx packages/chain/src/cli.ts [--port 8545] [--block-time 1]
 */
import { parseArgs } from 'node:util';
import { deployDemoContracts, startAnvil } from './local/index.js';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, 'block-time': { type: 'string', default: '1' } },
});
const chain = await startAnvil({ port: Number(values.port), blockTime: Number(values['block-time']) });
const contracts = await deployDemoContracts(chain);
console.log(JSON.stringify({ rpcUrl: chain.rpcUrl, CHAIN_RPC_URLS: chain.env.CHAIN_RPC_URLS, contracts }));

const shutdown = () => {
  void chain.stop().then(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
