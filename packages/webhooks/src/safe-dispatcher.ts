import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { addressRefusal, isAllowedHostname, type AddressPolicy } from './address-policy.js';

export const BLOCKED_ADDRESS_CODE = 'ERR_WEBHOOK_BLOCKED_ADDRESS';

/** Raised at connect time; sendWebhook recognises it by `code`, whichever layer wraps it. */
export class BlockedAddressError extends Error {
  readonly code = BLOCKED_ADDRESS_CODE;
  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * An undici Agent for deliveries: connect-time lookup that refuses non-public addresses (DNS rebinding: the
 * name is resolved again at every connection and every answer checked) unless allowed; connect timeout;
 * no redirects (undici 7 follows none without the redirect interceptor, and none is composed here);
 * keep-alive pooling per origin. The refusal surfaces as an error whose `code` is 'ERR_WEBHOOK_BLOCKED_ADDRESS'.
 */
export function createDeliveryAgent(
  policy: AddressPolicy,
  options: { connectTimeoutMs?: number; connections?: number; lookup?: typeof dnsLookup } = {},
): Agent {
  const baseConnect = buildConnector({
    timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    lookup: guardedLookup(policy, options.lookup ?? dnsLookup),
  });
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const refusal = refuseBeforeLookup(connectOptions.protocol, connectOptions.hostname, policy);
    if (refusal) {
      callback(refusal, null);
      return;
    }
    baseConnect(connectOptions, callback);
  };
  return new Agent({ connect, ...(options.connections === undefined ? {} : { connections: options.connections }) });
}

/**
 * net.connect skips `lookup` for IP literals, so those are judged here; so is the scheme, in case
 * allowHttp was switched off after an http endpoint was registered.
 */
function refuseBeforeLookup(protocol: string, hostname: string, policy: AddressPolicy): BlockedAddressError | null {
  if (protocol === 'http:' && !policy.allowHttp) return new BlockedAddressError('http endpoints are not allowed');
  if (isIP(hostname) === 0 || isAllowedHostname(hostname, policy)) return null;
  const refusal = addressRefusal(hostname, policy);
  return refusal ? new BlockedAddressError(`refused to connect to ${hostname}: ${refusal} address`) : null;
}

/** Asks for every answer, refuses the connection if any one is not public, then answers in the shape asked for. */
function guardedLookup(policy: AddressPolicy, resolve: typeof dnsLookup): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolve(hostname, { ...lookupOptions, all: true }, (error, answers: LookupAddress[] | string, family?: number) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      // An injected lookup may ignore `all` and answer with one address.
      const list = typeof answers === 'string' ? [{ address: answers, family: family ?? isIP(answers) }] : answers;
      const first = list[0];
      if (!first) {
        callback(Object.assign(new Error(`no addresses for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        return;
      }
      if (!isAllowedHostname(hostname, policy)) {
        for (const { address } of list) {
          const refusal = addressRefusal(address, policy);
          if (refusal) {
            callback(new BlockedAddressError(`refused to connect to ${hostname} (${address}): ${refusal} address`), '', 0);
            return;
          }
        }
      }
      if (lookupOptions.all) callback(null, list);
      else callback(null, first.address, first.family);
    });
  };
}
