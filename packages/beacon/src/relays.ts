/**
 * drand's public HTTP relays for the League of Entropy chains, as listed in drand's docs
 * (drand/drand-docs docs/developer/06-HTTP-API.md, commit 5431a762aa6118d7a90d365ea3dec6f265f34db0).
 * All serve the v1 API the client speaks; the order is the order they are tried in.
 */
export const DRAND_PUBLIC_RELAYS: readonly string[] = [
  'https://api.drand.sh',
  'https://api2.drand.sh',
  'https://api3.drand.sh',
  'https://drand.cloudflare.com',
  'https://api.drand.secureweb3.com:6875',
];
