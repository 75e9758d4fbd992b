/** What the console reads from a session JWT. The API verifies the signature; the console only needs sub and exp. */
export type TokenClaims = { sub: string; exp: number | null };

/** The payload of a JWT without verifying it, or null when the text is not a JWT with a `sub`. */
export function decodeTokenClaims(token: string): TokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const json = new TextDecoder().decode(Uint8Array.from(atob(padded), (c) => c.charCodeAt(0)));
    const payload: unknown = JSON.parse(json);
    if (typeof payload !== 'object' || payload === null) return null;
    const { sub, exp } = payload as { sub?: unknown; exp?: unknown };
    if (typeof sub !== 'string' || sub === '') return null;
    return { sub, exp: typeof exp === 'number' ? exp : null };
  } catch {
    return null;
  }
}

export const isExpired = (claims: TokenClaims, nowMs = Date.now()): boolean => claims.exp !== null && claims.exp * 1000 <= nowMs;
