import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressRefusal, isAllowedHostname, normalizeHostname, type AddressPolicy } from './address-policy.js';

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/** Names that only mean something inside a network; resolving them would reach that network. */
const INTERNAL_NAMES = new Set(['localhost', 'metadata.google.internal']);
const INTERNAL_SUFFIXES = ['.localhost', '.internal', '.local', '.localdomain', '.home.arpa'];

/** getaddrinfo, like the connection will use, so /etc/hosts entries are judged too. */
async function resolveAll(hostname: string): Promise<string[]> {
  const answers = await lookup(hostname, { all: true });
  return answers.map((answer) => answer.address);
}

/**
 * At registration: a parseable absolute URL; https (http only with allowHttp); no userinfo; no fragment;
 * any port; the host not an internal name unless allowed; IP literals judged after WHATWG normalisation
 * (so 2130706433, 0x7f000001, 0177.0.0.1 and 127.1 all arrive as 127.0.0.1); a DNS name is resolved and
 * refused if any answer is not public, unless the name or the answer is in allowedHosts. The connect-time
 * check in the delivery agent repeats the address rule, since DNS may answer differently later.
 */
export async function checkEndpointUrl(
  raw: string,
  policy: AddressPolicy,
  resolve: (hostname: string) => Promise<string[]> = resolveAll,
): Promise<UrlVerdict> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('URL is not a valid absolute URL');
  }
  if (url.protocol === 'http:') {
    if (!policy.allowHttp) return refuse('URL must use https');
  } else if (url.protocol !== 'https:') {
    return refuse(`URL scheme ${url.protocol} is not allowed; use https`);
  }
  if (url.username !== '' || url.password !== '') return refuse('URL must not contain credentials (user:password@)');
  // `hash` is empty for a bare trailing '#', but '#' can only survive serialisation as the fragment mark.
  if (url.href.includes('#')) return refuse('URL must not contain a fragment (#...)');

  const host = normalizeHostname(url.hostname);
  if (isAllowedHostname(host, policy)) return { ok: true, url };

  if (isIP(host) !== 0) {
    const refusal = addressRefusal(host, policy);
    return refusal ? refuse(`host ${host} is a ${refusal} address`) : { ok: true, url };
  }

  if (isInternalName(host)) return refuse(`host ${host} is an internal name`);

  let answers: string[];
  try {
    answers = await resolve(host);
  } catch {
    return refuse(`host ${host} could not be resolved`);
  }
  if (answers.length === 0) return refuse(`host ${host} could not be resolved`);
  for (const answer of answers) {
    const refusal = addressRefusal(answer, policy);
    if (refusal) return refuse(`host ${host} resolves to ${answer}, a ${refusal} address`);
  }
  return { ok: true, url };
}

function isInternalName(host: string): boolean {
  // A single label ("metadata", "intranet") is completed by the resolver's search domains: internal by nature.
  if (!host.includes('.')) return true;
  return INTERNAL_NAMES.has(host) || INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

function refuse(reason: string): UrlVerdict {
  return { ok: false, reason };
}
