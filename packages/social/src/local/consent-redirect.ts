import type { DemoAccountName } from './demo-accounts.js';

/** Where a stand-in's consent sent the browser back to, with the callback's parameters read. */
export type ConsentRedirect = { location: URL; code: string | null; state: string | null; error: string | null };

/**
 * What a browser does with a consent URL of a local stand-in, without a browser: the URL with
 * `as=<account>` (or `deny`) consents at once, and the redirect back is read instead of followed.
 * For tests of what builds on the flows (connections, requirements).
 */
export async function consentThrough(authorizationUrl: string | URL, account: DemoAccountName | 'deny'): Promise<ConsentRedirect> {
  const url = new URL(authorizationUrl);
  url.searchParams.set('as', account);
  const response = await fetch(url, { redirect: 'manual' });
  const target = response.headers.get('location');
  if (response.status !== 302 || !target) throw new Error(`the stand-in did not redirect (${response.status}): ${await response.text()}`);
  const location = new URL(target);
  const param = (name: string) => location.searchParams.get(name);
  return { location, code: param('code'), state: param('state'), error: param('error') };
}
