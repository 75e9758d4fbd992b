import type { Address, ChainEndpoint } from './types.js';

/** Multicall3's address, the same on every chain that has it (and on the local chain, where we put our aggregator). */
export const CANONICAL_MULTICALL3: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

const CHAIN_NAME = /^[a-z0-9-]{1,32}$/;

/**
 * `CHAIN_RPC_URLS` (`name=url,name=url`) as endpoints, or the first problem in words (empty text =
 * no chains). Names are what requirements say in `params.chain`, so they are lower-case and unique.
 */
export function parseChainRpcUrls(text: string): ChainEndpoint[] | string {
  const pairs = text
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '');
  const endpoints: ChainEndpoint[] = [];
  for (const [index, pair] of pairs.entries()) {
    const equals = pair.indexOf('=');
    // Said by position, not quoted: an RPC URL often carries a provider key.
    if (equals < 0) return `entry ${index + 1} is not name=url`;
    const name = pair.slice(0, equals).trim();
    const rpcUrl = pair.slice(equals + 1).trim();
    if (!CHAIN_NAME.test(name)) return `chain name ${JSON.stringify(name)} must be 1-32 of a-z, 0-9, -`;
    if (endpoints.some((endpoint) => endpoint.name === name)) return `chain ${name} is listed twice`;
    const problem = urlProblem(rpcUrl);
    if (problem) return `${name}: ${problem}`;
    endpoints.push({ name, rpcUrl });
  }
  return endpoints;
}

function urlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'the RPC URL is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'the RPC URL must be http(s)';
  return null;
}
