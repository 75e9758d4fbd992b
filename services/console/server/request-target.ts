/** Resolves request targets against; never sent anywhere. */
const PLACEHOLDER_ORIGIN = 'http://console.invalid';

/** What goes upstream: the resolved path, and the query as sent (without its `?`). */
export type UpstreamTarget = { path: string; query: string };

/**
 * The path and query to send upstream for a request target, or null when the target does not lie
 * under `prefix` once resolved. Dot segments are resolved first, the encoded ones (`%2e%2e`) too,
 * as the upstream's URL parser would: checking the prefix on the raw target let
 * `/api/developer/%2e%2e/%2e%2e/metrics` through to management's own `/metrics` (issue 23). An
 * absolute-form target (`GET http://host/api/v1/me`, RFC 9112 §3.2.2) counts by its path: its host
 * is not ours to follow.
 */
export function upstreamTargetOf(requestTarget: string, prefix: string): UpstreamTarget | null {
  let url: URL;
  try {
    url = new URL(requestTarget, PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  const { pathname, search } = url;
  if (pathname !== prefix && !pathname.startsWith(`${prefix}/`)) return null;
  return { path: pathname, query: search.slice(1) };
}
