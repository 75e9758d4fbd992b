import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { apiKeyDisplayParts, generateApiKey } from '@raffle/contracts';
import { createDatabase, hashApiKey, schema, type Sql } from '@raffle/db';
import { bulkIdFactory } from './bulk-ids.js';
import { copyRows } from './copy.js';
import type { Manifest } from './seed.js';

/** The name every entrant key carries: how a later run finds (and replaces) them. */
const ENTRANT_KEY_NAME = 'bench entrant key';

/** A set of personal keys, one per user: its name (how a later run finds them) and their scopes. */
export type PersonalKeySet = { name: string; scopes: string[] };

export type EntrantKeys = {
  /** One plaintext key a line, under the git-ignored results folder, mode 0600. */
  file: string;
  /** Keys the load may send: every line but the last. */
  usable: number;
  /** The last line, kept out of the load: each run's probe enters with it. */
  probeKey: string;
};

async function storedKeysMatch(sql: Sql, keys: string[], set: PersonalKeySet): Promise<boolean> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from api_keys where name = ${set.name} and revoked_at is null`;
  if (row!.n !== keys.length) return false;
  const probe = [keys[0]!, keys[keys.length >> 1]!, keys[keys.length - 1]!].map(hashApiKey);
  const [found] = await sql<{ n: number }[]>`
    select count(*)::int as n from api_keys
    where key_hash in ${sql(probe)} and name = ${set.name} and scopes @> ${set.scopes}::text[]`;
  return found!.n === new Set(probe).size;
}

/**
 * Personal keys (scope entries:write) for up to `wanted` users of the dataset, one each: a user
 * enters a raffle once, so entering under load needs as many entrants as requests. The users
 * are the seeded ones (any user may enter a fresh raffle); only api_keys grows, so the dataset
 * the read benchmark sees is unchanged. Written with COPY, and reused while the file and the
 * database agree; otherwise replaced.
 */
export function ensureEntrantKeys(databaseUrl: string, manifest: Manifest, file: string, wanted: number, log: (line: string) => void): Promise<EntrantKeys> {
  return ensurePersonalKeys(databaseUrl, manifest, file, wanted, { name: ENTRANT_KEY_NAME, scopes: ['entries:write'] }, log);
}

/**
 * Personal keys of `set` for the first `wanted` users of the dataset by id (the owner left out),
 * one each; written with COPY, reused while the file and the database agree, otherwise replaced.
 * The users are the same whichever set: the allowlist benchmark's winners are these users too.
 */
export async function ensurePersonalKeys(
  databaseUrl: string,
  manifest: Manifest,
  file: string,
  wanted: number,
  set: PersonalKeySet,
  log: (line: string) => void,
): Promise<EntrantKeys> {
  const database = createDatabase({ url: databaseUrl, max: 1, applicationName: 'bench-personal-keys' });
  try {
    const { sql } = database;
    const [users] = await sql<{ n: number }[]>`select count(*)::int as n from users where id <> ${manifest.ownerUserId}`;
    const count = Math.min(wanted, users!.n);
    if (count < 2) throw new Error(`the dataset has ${users!.n} users besides the owner; a load of ${set.name}s needs at least 2`);
    const keysOf = (text: string) => text.split('\n').filter(Boolean);
    const stored = await readFile(file, 'utf8').then(keysOf, () => [] as string[]);
    if (stored.length === count && (await storedKeysMatch(sql, stored, set))) {
      log(`${set.name}s: reusing ${count.toLocaleString('en-US')} (${file})`);
      return { file, usable: count - 1, probeKey: stored[count - 1]! };
    }

    const started = performance.now();
    await sql`delete from api_keys where name = ${set.name}`;
    const entrants = await sql<{ id: string }[]>`select id from users where id <> ${manifest.ownerUserId} order by id limit ${count}`;
    const keys = entrants.map(() => generateApiKey('personal'));
    const nextId = bulkIdFactory('apiKey');
    const now = new Date();
    function* rows(): Generator<typeof schema.apiKeys.$inferInsert> {
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        yield {
          id: nextId(now.getTime()),
          kind: 'personal',
          userId: entrants[i]!.id,
          workspaceId: null,
          name: set.name,
          keyHash: hashApiKey(key),
          ...apiKeyDisplayParts(key),
          scopes: set.scopes,
          expiresAt: null,
          revokedAt: null,
          lastUsedAt: null,
          rolledFromId: null,
          createdAt: now,
          updatedAt: now,
        };
      }
    }
    await copyRows(sql, schema.apiKeys, rows());
    await sql`vacuum (analyze) api_keys`;
    await mkdir(dirname(file), { recursive: true });
    // writeFile's mode applies only to a new file: an old one (perhaps wider) is removed first.
    await rm(file, { force: true });
    await writeFile(file, `${keys.join('\n')}\n`, { mode: 0o600 });
    log(`${set.name}s: ${count.toLocaleString('en-US')} created in ${((performance.now() - started) / 1000).toFixed(1)} s (${file})`);
    return { file, usable: count - 1, probeKey: keys[count - 1]! };
  } finally {
    await database.close();
  }
}
