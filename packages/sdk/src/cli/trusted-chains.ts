import { readFile } from 'node:fs/promises';
import { chainValueProblems, UNCHAINED_G1_RFC9380 } from '../draw/beacon-chain.js';
import type { TrustedBeaconChain } from '../verify-draw.js';

const INLINE_CHAIN = /^([0-9a-f]{64}):([0-9a-f]{192}):(\d+):(\d+)$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A chain from its four pinned values, or what is wrong with them. */
function pinnedChain(values: { chainHash: unknown; publicKey: unknown; period: unknown; genesisTime: unknown; scheme?: unknown }, where: string): TrustedBeaconChain {
  const { chainHash, publicKey, period, genesisTime, scheme } = values;
  const problems = [
    ...chainValueProblems(values).map(({ field, need }) => `${field} as ${need}`),
    ...(scheme === undefined || scheme === UNCHAINED_G1_RFC9380 ? [] : [`the scheme ${UNCHAINED_G1_RFC9380} (not ${String(scheme)})`]),
  ];
  if (problems.length > 0) throw new Error(`${where} is not a beacon chain: it needs ${problems.join(', ')}`);
  return { chainHash: chainHash as string, publicKey: publicKey as string, period: period as number, genesisTime: genesisTime as number, scheme: UNCHAINED_G1_RFC9380 };
}

/**
 * A chain from JSON: drand's `/info` (`hash`, `public_key`, `period`, `genesis_time`, `schemeID`)
 * or the SDK's BeaconChain (`chainHash`, `publicKey`, `period`, `genesisTime`).
 */
export function chainFromJson(json: unknown, where: string): TrustedBeaconChain {
  if (!isRecord(json)) throw new Error(`${where} is not a JSON object`);
  if ('public_key' in json || 'hash' in json) {
    return pinnedChain({ chainHash: json.hash, publicKey: json.public_key, period: json.period, genesisTime: json.genesis_time, scheme: json.schemeID }, where);
  }
  return pinnedChain({ chainHash: json.chainHash, publicKey: json.publicKey, period: json.period, genesisTime: json.genesisTime, scheme: json.scheme }, where);
}

/** `--trust-chain`: `chainHash:publicKey:period:genesisTime`, or a JSON file holding the chain. */
export async function trustChainArgument(value: string): Promise<TrustedBeaconChain> {
  const inline = INLINE_CHAIN.exec(value);
  if (inline) return pinnedChain({ chainHash: inline[1], publicKey: inline[2], period: Number(inline[3]), genesisTime: Number(inline[4]) }, `--trust-chain ${value}`);
  let text: string;
  try {
    text = await readFile(value, 'utf8');
  } catch (error) {
    throw new Error(`--trust-chain ${value} is neither chainHash:publicKey:period:genesisTime nor a readable file (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`--trust-chain ${value} is not JSON`);
  }
  return chainFromJson(json, `--trust-chain ${value}`);
}

/**
 * `--trust-beacon-url`: the chain `${url}/info` describes. This trusts whoever runs that URL: a
 * beacon's own description of itself is only as good as its operator.
 */
export async function trustBeaconUrl(url: string, fetchImpl: typeof fetch): Promise<TrustedBeaconChain> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--trust-beacon-url ${url} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`--trust-beacon-url ${url} is not an http(s) URL`);
  const infoUrl = `${url.replace(/\/+$/, '')}/info`;
  let response: Response;
  try {
    response = await fetchImpl(infoUrl, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    throw new Error(`could not fetch ${infoUrl}: ${(error as Error).message}`);
  }
  if (!response.ok) throw new Error(`${infoUrl} answered ${response.status}`);
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new Error(`${infoUrl} did not answer JSON`);
  }
  return chainFromJson(json, infoUrl);
}
