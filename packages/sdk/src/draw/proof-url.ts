/**
 * Where a raffle's draw proof is: the keyless public route for a slug, or a URL the caller gives
 * (public or keyed, proof or raffle URL).
 */

export const PUBLIC_DRAW_PATH = /\/public\/v1\/raffles\/[^/]+\/draw\/?$/;
export const KEYED_DRAW_PATH = /\/api\/v1\/raffles\/[^/]+\/draw\/?$/;
const RAFFLE_PATH = /\/(?:api|public)\/v1\/raffles\/[^/]+\/?$/;

export type ProofLocation = { url: string; keyed: boolean } | { error: string };

/** The public proof URL of `slug` under `baseUrl` (which may carry a path prefix). */
export function publicProofUrl(baseUrl: string, slug: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/public/v1/raffles/${encodeURIComponent(slug)}/draw`;
}

const looksLikeUrl = (text: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(text);

/**
 * A slug becomes the public route under `baseUrl`; a URL is used as given when it names a proof,
 * and gains `/draw` when it names a raffle. `keyed` says whether the URL is an /api/v1 one, which
 * needs an API key.
 */
export function locateProof(slugOrUrl: string, baseUrl: string): ProofLocation {
  if (!looksLikeUrl(slugOrUrl)) {
    if (slugOrUrl === '' || slugOrUrl.includes('/')) return { error: `not a raffle slug or an http(s) URL: ${slugOrUrl}` };
    return { url: publicProofUrl(baseUrl, slugOrUrl), keyed: false };
  }
  let url: URL;
  try {
    url = new URL(slugOrUrl);
  } catch {
    return { error: `not a URL: ${slugOrUrl}` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { error: `the URL must be http(s): ${url.href}` };
  if (RAFFLE_PATH.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/$/, '')}/draw`;
  if (PUBLIC_DRAW_PATH.test(url.pathname)) return { url: url.href, keyed: false };
  if (KEYED_DRAW_PATH.test(url.pathname)) return { url: url.href, keyed: true };
  return { error: `${url.href} is not a draw proof URL (…/public/v1/raffles/<slug>/draw or …/api/v1/raffles/<slug>/draw)` };
}
