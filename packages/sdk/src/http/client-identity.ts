import { SDK_VERSION } from '../version.js';

/** What the runtime is told apart by; `globalThis` in use, a stand-in in tests. */
export type RuntimeGlobals = {
  process?: { versions?: { node?: string; bun?: string } };
  Deno?: { version?: { deno?: string } };
  navigator?: unknown;
};

/** `node/20.11.1`, `bun/1.1.0`, `deno/1.44.0`, or `browser`: what the client runs on, for the server's logs and support. */
function runtimeName(globals: RuntimeGlobals): string {
  if (globals.Deno?.version?.deno) return `deno/${globals.Deno.version.deno}`;
  if (globals.process?.versions?.bun) return `bun/${globals.process.versions.bun}`;
  if (globals.process?.versions?.node) return `node/${globals.process.versions.node}`;
  return globals.navigator === undefined ? 'unknown' : 'browser';
}

/** `raffle-sdk-js/1.0.0 node/20.11.1` */
export const clientIdentity = (globals: RuntimeGlobals = globalThis as RuntimeGlobals): string => `raffle-sdk-js/${SDK_VERSION} ${runtimeName(globals)}`;

/**
 * The identification headers of every request. `X-Raffle-Client` always (a browser cannot set
 * `User-Agent`, and the public routes' CORS allows this header), and `User-Agent` outside
 * browsers, where it would be refused or ignored anyway. OpenAI's client does the same with its
 * `X-Stainless-*` headers, Stripe's with `X-Stripe-Client-User-Agent`.
 */
export function clientIdentityHeaders(globals: RuntimeGlobals = globalThis as RuntimeGlobals): Record<string, string> {
  const identity = clientIdentity(globals);
  return identity.endsWith(' browser') ? { 'x-raffle-client': identity } : { 'x-raffle-client': identity, 'user-agent': identity };
}
