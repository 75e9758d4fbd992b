import { deployAllowlistMint, type LocalChain } from '@raffle/chain/local';
import { createDatabase, listAllowlistVersions } from '@raffle/db';
import type { Hex } from 'viem';
import type { DemoKeys } from './db.js';

/** What `start` deployed for the demo's allowlist raffle, as .demo-keys.json names it. */
export type DemoAllowlistMint = {
  /** The AllowlistMint contract on the local chain. */
  address: string;
  raffle: { id: string; slug: string };
  /** The allowlist version whose root the contract was deployed with. */
  version: number;
  root: string;
};

/**
 * Deploys an AllowlistMint (packages/chain/contracts) for the demo's finalized allowlist raffle,
 * the big draw, with the root of its latest published allowlist version, on the fresh local chain
 * `start` runs: its winners mint with the proof the data plane serves them. Null, with why, when
 * the raffle has no published version (a database the demo was loaded into before allowlists
 * existed: delete .data/postgres for a fresh demo).
 */
export async function deployDemoAllowlistMint(chain: LocalChain, databaseUrl: string, demo: DemoKeys, say: (message: string) => void = () => {}): Promise<DemoAllowlistMint | null> {
  const raffle = demo.raffles.finalizedDraw!;
  const database = createDatabase({ url: databaseUrl, max: 1, applicationName: 'start-platform' });
  const [latest] = await listAllowlistVersions(database.db, raffle.id).finally(() => database.close());
  if (!latest) {
    say(`${raffle.slug} has no published allowlist (its demo data predates allowlists): no AllowlistMint deployed`);
    return null;
  }
  const address = await deployAllowlistMint(chain, { name: 'Kite Genesis', symbol: 'KITE', root: latest.root as Hex });
  return { address, raffle: { id: raffle.id, slug: raffle.slug }, version: latest.version, root: latest.root };
}
