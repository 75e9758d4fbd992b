import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { generateSecretKey } from '@raffle/sdk';

/**
 * What makes a local beacon the same chain across restarts: its key and its genesis. Both are
 * persisted together, because a new genesis time would give the same key a new chain hash and
 * strand every proof that names the old one.
 */
export type BeaconIdentity = { secretKey: Uint8Array; genesisTime: number };

type IdentityFile = { secretKey: string; genesisTime: number };

/**
 * The identity in `keyFile`, or a new one written there (mode 0600: it is a signing key).
 * `genesisTime` applies to a new file only; an existing file keeps its own.
 */
export async function loadOrCreateIdentity(keyFile: string, genesisTime: number): Promise<BeaconIdentity> {
  const existing = await readIdentityFile(keyFile);
  if (existing !== undefined) return existing;
  const identity = { secretKey: generateSecretKey(), genesisTime };
  await mkdir(dirname(keyFile), { recursive: true });
  const file: IdentityFile = { secretKey: Buffer.from(identity.secretKey).toString('hex'), genesisTime };
  // `wx`: two beacons starting at once must not both write a key and serve different chains.
  await writeFile(keyFile, JSON.stringify(file, null, 2) + '\n', { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return (await readIdentityFile(keyFile)) ?? identity;
}

async function readIdentityFile(keyFile: string): Promise<BeaconIdentity | undefined> {
  let text: string;
  try {
    text = await readFile(keyFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<IdentityFile>;
  if (typeof parsed.secretKey !== 'string' || !/^[0-9a-f]{64}$/.test(parsed.secretKey) || !Number.isSafeInteger(parsed.genesisTime)) {
    throw new Error(`${keyFile} is not a local beacon key file ({ "secretKey": 64 hex, "genesisTime": unix seconds })`);
  }
  return { secretKey: Buffer.from(parsed.secretKey, 'hex'), genesisTime: parsed.genesisTime as number };
}

/**
 * drand's group hash ("genesis seed") is the hash of the group file of the nodes that ran the
 * key generation; a one-key local beacon has no such file, so it uses sha256 of a label and its
 * public key. It only feeds the chain hash, so all it must be is stable and specific to the key.
 */
export function localGroupHash(publicKey: string): string {
  return createHash('sha256').update('raffle-local-beacon:').update(Buffer.from(publicKey, 'hex')).digest('hex');
}
