import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PERSONAL_API_SCOPES, WORKSPACE_API_SCOPES } from '@raffle/contracts';
import { createDatabase, hashApiKey, insertApiKey, type Sql } from '@raffle/db';
import type { Manifest } from './seed.js';

export type BenchKeys = { workspace: string; personal: string };

async function usable(sql: Sql, key: string | undefined): Promise<boolean> {
  if (!key) return false;
  const [row] = await sql`
    select 1 from api_keys where key_hash = ${hashApiKey(key)} and revoked_at is null and expires_at is null`;
  return row !== undefined;
}

/**
 * The two keys the scenarios send. Plaintext exists only in `file` (under the git-ignored
 * results folder, mode 0600); a re-seeded database no longer knows the old ones, so they are
 * minted again whenever the stored pair does not verify.
 */
export async function ensureKeys(databaseUrl: string, manifest: Manifest, file: string): Promise<BenchKeys> {
  const database = createDatabase({ url: databaseUrl, max: 1, applicationName: 'bench-keys' });
  try {
    const stored = await readFile(file, 'utf8')
      .then((text) => JSON.parse(text) as Partial<BenchKeys>)
      .catch(() => ({}) as Partial<BenchKeys>);
    if ((await usable(database.sql, stored.workspace)) && (await usable(database.sql, stored.personal))) return stored as BenchKeys;

    const workspace = await insertApiKey(database.db, {
      kind: 'workspace',
      userId: manifest.ownerUserId,
      workspaceId: manifest.workspaceId,
      name: 'bench workspace key',
      scopes: [...WORKSPACE_API_SCOPES],
    });
    const personal = await insertApiKey(database.db, {
      kind: 'personal',
      userId: manifest.ownerUserId,
      name: 'bench personal key',
      scopes: [...PERSONAL_API_SCOPES],
    });
    const keys: BenchKeys = { workspace: workspace.apiKey, personal: personal.apiKey };
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
    return keys;
  } finally {
    await database.close();
  }
}
