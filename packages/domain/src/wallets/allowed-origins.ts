/**
 * Where a wallet-link message may say it comes from: the console's origins. A Sign-In with Ethereum
 * message names a `domain` (the site asking) and a `URI`; a wallet shows the domain to its user and
 * warns when it is not the page's. Checking both against the console's own origins means a message
 * another site got someone to sign cannot link that wallet here (EIP-4361's phishing defence).
 */
export type AllowedOrigin = { scheme: 'http' | 'https'; hostname: string; port: string | '*' };

const ORIGIN = /^(https?):\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}|\*))?\/?$/i;

const DEFAULT_PORTS = { http: '80', https: '443' } as const;

/** `SIWE_ALLOWED_ORIGINS` (comma-separated `scheme://host[:port]`, `:*` for any port) read, or the problem with it. */
export function parseAllowedOrigins(text: string): AllowedOrigin[] | string {
  const origins: AllowedOrigin[] = [];
  for (const item of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const match = ORIGIN.exec(item);
    if (!match) return `"${item}" is not an origin (scheme://host[:port], port may be *)`;
    const scheme = match[1]!.toLowerCase() as AllowedOrigin['scheme'];
    origins.push({ scheme, hostname: match[2]!.toLowerCase(), port: match[3] ?? DEFAULT_PORTS[scheme] });
  }
  return origins;
}

/** The URL's port, its scheme's default when it names none (URL leaves `port` empty then). */
const portOf = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');

/** Whether the URL's origin is one of the allowed ones. */
export function isAllowedOrigin(origins: readonly AllowedOrigin[], url: URL): boolean {
  const scheme = url.protocol.slice(0, -1);
  return origins.some((o) => o.scheme === scheme && o.hostname === url.hostname.toLowerCase() && (o.port === '*' || o.port === portOf(url)));
}

/**
 * Whether a message's `domain` and `URI` (and `scheme`, when it names one) are the console's: the
 * URI's origin is allowed and the domain is that origin's authority (host, and port when not the default).
 */
export function messageOriginAllowed(origins: readonly AllowedOrigin[], message: { domain: string; uri: string; scheme?: string }): boolean {
  let uri: URL;
  try {
    uri = new URL(message.uri);
  } catch {
    return false;
  }
  if (message.scheme !== undefined && `${message.scheme.toLowerCase()}:` !== uri.protocol) return false;
  if (message.domain.toLowerCase() !== uri.host.toLowerCase()) return false;
  return isAllowedOrigin(origins, uri);
}

/**
 * The origin to suggest in a nonce's answer: the caller's (the console page's `Origin`) when it is
 * allowed, else the first allowed origin, a wildcard port read as the console's default (3003).
 */
export function suggestedOrigin(origins: readonly AllowedOrigin[], requestOrigin: string | undefined): URL | null {
  if (requestOrigin) {
    try {
      const url = new URL(requestOrigin);
      if (isAllowedOrigin(origins, url)) return new URL(url.origin);
    } catch {
      // not a URL: suggest a configured origin instead
    }
  }
  const first = origins[0];
  if (!first) return null;
  const port = first.port === '*' ? '3003' : first.port;
  return new URL(`${first.scheme}://${first.hostname}${port === DEFAULT_PORTS[first.scheme] ? '' : `:${port}`}`);
}
