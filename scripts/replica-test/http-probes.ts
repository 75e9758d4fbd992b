/** What the replica tests need of HTTP and time: a JSON call with a bearer token, and a bounded wait. */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One JSON request with `Authorization: Bearer <token>`; the body parsed, `{}` when empty. */
export async function call(origin: string, method: string, path: string, token: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Polls `probe` every 100 ms until it answers something truthy, or throws after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
