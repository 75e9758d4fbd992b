import { SDK_VERSION } from '../version.js';

type RuntimeGlobals = {
  process?: { versions?: { node?: string; bun?: string } };
  Deno?: { version?: { deno?: string } };
  navigator?: unknown;
};

/** `node/20.11.1`, `bun/1.1.0`, `deno/1.44.0`, or `browser`: what the client runs on, for the server's logs and support. */
function runtimeName(): string {
  const globals = globalThis as RuntimeGlobals;
  if (globals.Deno?.version?.deno) return `deno/${globals.Deno.version.deno}`;
  if (globals.process?.versions?.bun) return `bun/${globals.process.versions.bun}`;
  if (globals.process?.versions?.node) return `node/${globals.process.versions.node}`;
  return globals.navigator === undefined ? 'unknown' : 'browser';
}

/** `raffle-sdk-js/1.0.0 node/20.11.1` */
export const clientIdentity = (): string => `raffle-sdk-js/${SDK_VERSION} ${runtimeName()}`;

/**
 * The identification headers of every request. `X-Raffle-Client` always (a browser cannot set
 * `User-Agent`, and the public routes' CORS allows this header), and `User-Agent` outside
 * browsers, where it would be refused or ignored anyway. OpenAI's client does the same with its
 * `X-Stainless-*` headers, Stripe's with `X-Stripe-Client-User-Agent`.
 */
export function clientIdentityHeaders(): Record<string, string> {
  const identity = clientIdentity();
  return identity.endsWith(' browser') ? { 'x-raffle-client': identity } : { 'x-raffle-client': identity, 'user-agent': identity };
}
