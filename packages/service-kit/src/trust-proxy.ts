import { isIP } from 'node:net';
import { Type } from '@sinclair/typebox';
import { ConfigError } from './config.js';

/**
 * Whose `X-Forwarded-For` a server believes: `false` (nobody's: the client is the connection's
 * peer), `true` (everyone's: only where nothing but our own proxies can reach the server, as behind
 * a network policy), or a comma-separated list of addresses and CIDRs (those peers' only: compose
 * names the console's fixed address). The same rule in every server of ours, handed to Fastify's
 * `trustProxy` as is; `request.ip` is then the address the rule believes.
 */
export const TrustProxySetting = {
  TRUST_PROXY: Type.String({ default: 'false', minLength: 1 }),
};

export type TrustProxy = boolean | string[];

/**
 * The rule as Fastify's `trustProxy` takes it. A service's loadConfig calls it too, so a value that
 * is no rule stops the start with the other config errors rather than at the first request.
 */
export function trustProxyRule(value: string): TrustProxy {
  const text = value.trim().toLowerCase();
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  const entries = text.split(',').map((entry) => entry.trim());
  const invalid = entries.filter((entry) => !isAddressOrCidr(entry));
  if (invalid.length > 0) throw new ConfigError('invalid configuration:\n  TRUST_PROXY: must be true, false or a comma-separated list of IP addresses and CIDRs');
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
}
