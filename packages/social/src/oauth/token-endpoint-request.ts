import { Agent, request } from 'undici';

/** A confidential client's credentials, as the provider registered them. */
export type ClientCredentials = { clientId: string; clientSecret: string };

/** The endpoint's answer with its JSON body (`null` when it sent none or none that parses), or why there is none. */
export type EndpointAnswer = { answered: true; status: number; body: object | null } | { answered: false; reason: string };

/**
 * The token and revocation requests' own connection pool. Not the process's global dispatcher, which
 * Node 20's built-in `fetch` sends through: the first undici a process loads installs it, and undici
 * 7's (loaded by `@raffle/webhooks`) refuses the requests Node 20's `fetch` hands it when they carry
 * a `Content-Length`, which every token request did (decision 0045). Idle sockets hold no process open.
 */
const oauthAgent = new Agent();

const USER_AGENT = 'Raffle-Connections/1.0';

/**
 * POSTs an OAuth form (RFC 6749 §4.1.3, §6; RFC 7009 §2.1) to a token or revocation endpoint, the
 * client authenticated by HTTP Basic. `timeoutMs` bounds the whole exchange, connect to the last
 * byte of the answer; past it the request is aborted.
 */
export async function postToEndpoint(url: string, form: URLSearchParams, client: ClientCredentials, timeoutMs: number): Promise<EndpointAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await request(url, {
      method: 'POST',
      dispatcher: oauthAgent,
      signal,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: basicAuthorization(client),
        'user-agent': USER_AGENT,
      },
      body: form.toString(),
    });
    const text = await response.body.text();
    return { answered: true, status: response.statusCode, body: jsonObjectOf(text) };
  } catch {
    // Aborted at the deadline, or no connection, or one that broke before the whole answer came.
    return { answered: false, reason: signal.aborted ? `the provider did not answer within ${timeoutMs} ms` : 'the provider could not be reached' };
  }
}

/**
 * RFC 6749 §2.3.1: the client id and the secret each form-urlencoded (Appendix B), joined by a
 * colon, base64. The form encoding is `URLSearchParams`'s.
 */
function basicAuthorization({ clientId, clientSecret }: ClientCredentials): string {
  const formEncoded = (value: string) => new URLSearchParams({ value }).toString().slice('value='.length);
  return `Basic ${Buffer.from(`${formEncoded(clientId)}:${formEncoded(clientSecret)}`).toString('base64')}`;
}

function jsonObjectOf(text: string): object | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : null;
  } catch {
    return null;
  }
}
