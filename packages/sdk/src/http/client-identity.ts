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
 * The identification headers of every request outside browsers: `X-Raffle-Client` and the same
 * value as `User-Agent` (OpenAI's client does the same with its `X-Stainless-*` headers, Stripe's
 * with `X-Stripe-Client-User-Agent`). A browser gets none: a page may not set `User-Agent`, and any
 * other header of ours would turn each keyless GET of `/public/v1` (a draw proof a community's page
 * verifies) from a simple request into one preceded by a CORS preflight, a round trip for nothing;
 * the browser's own User-Agent names the runtime there.
 */
export function clientIdentityHeaders(globals: RuntimeGlobals = globalThis as RuntimeGlobals): Record<string, string> {
  const identity = clientIdentity(globals);
  return identity.endsWith(' browser') ? {} : { 'x-raffle-client': identity, 'user-agent': identity };
}
