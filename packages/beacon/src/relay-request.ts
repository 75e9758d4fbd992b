/** A relay's claim about a round, before any verification. */
export type RelayRound = { round: number; signature: string; randomness?: string };

export type RelayAnswer =
  | { kind: 'round'; claim: RelayRound }
  | { kind: 'not-published' }
  | { kind: 'failed'; reason: string };

/** Bigger than any round or info document; a longer body is garbage, and not read to the end. */
const MAX_BODY_BYTES = 16 * 1024;

/** GET `url` within `timeoutMs` (connect, headers and body) and parse it as JSON. */
export async function getRelayJson(url: string, timeoutMs: number): Promise<{ status: number; json?: unknown; reason?: string }> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  } catch (error) {
    return { status: 0, reason: describeFetchError(error, timeoutMs) };
  }
  let text: string;
  try {
    text = await readCapped(response, MAX_BODY_BYTES);
  } catch (error) {
    return { status: response.status, reason: describeFetchError(error, timeoutMs) };
  }
  if (!response.ok) return { status: response.status, reason: `HTTP ${response.status}` };
  try {
    return { status: response.status, json: JSON.parse(text) };
  } catch {
    return { status: response.status, reason: 'answer is not JSON' };
  }
}

/**
 * One round from one relay. drand relays answer 404 for a round not yet published (some proxies
 * 425 Too Early); both mean "ask again later", unlike any other failure.
 */
export async function requestRound(url: string, timeoutMs: number): Promise<RelayAnswer> {
  const { status, json, reason } = await getRelayJson(url, timeoutMs);
  if (status === 404 || status === 425) return { kind: 'not-published' };
  if (reason !== undefined) return { kind: 'failed', reason };
  const claim = parseRelayRound(json);
  return claim === undefined ? { kind: 'failed', reason: 'answer is not a beacon round' } : { kind: 'round', claim };
}

function parseRelayRound(json: unknown): RelayRound | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const { round, signature, randomness } = json as Record<string, unknown>;
  if (typeof round !== 'number' || !Number.isSafeInteger(round) || round < 1) return undefined;
  if (typeof signature !== 'string') return undefined;
  if (randomness !== undefined && typeof randomness !== 'string') return undefined;
  return { round, signature: signature.toLowerCase(), ...(randomness === undefined ? {} : { randomness: randomness.toLowerCase() }) };
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new Error(`answer is larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${timeoutMs} ms`;
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  return cause ?? (error instanceof Error ? error.message : String(error));
}
