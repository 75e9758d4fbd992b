import { createServer, request as httpRequest, type Server } from 'node:http';
import { deployDemoContracts, deployHostileToken, HOSTILE_MODES, mintDemoHoldings, startAnvil, type DeployedDemoContracts, type LocalChain } from '@raffle/chain/local';
import type { Database } from '@raffle/db';
import { encodeAbiParameters, getAddress, keccak256, type Address, type Hex } from 'viem';
import type { Manifest } from './seed.js';

/** The chain name the gated raffle's requirement and CHAIN_RPC_URLS use. */
export const GATE_CHAIN = 'anvil';

/**
 * Entrant i's wallet: a fixed, recognisable address (nobody's key), so runs are repeatable and
 * the rows are easy to remove.
 */
const walletOf = (i: number): Address => getAddress(`0xbe4c${i.toString(16).padStart(36, '0')}`);

/** Every other entrant holds a pass: the drop meets holders and non-holders alike. */
export const holdsPass = (i: number) => i % 2 === 0;

/**
 * JSON-RPC traffic through a counting relay in front of anvil: what the data plane's reader sent
 * (HTTP requests, and the JSON-RPC calls in them, a batch counting each call).
 */
type RpcCounter = { url: string; requests: number; calls: number; close(): Promise<void> };

function countingRelay(target: string): Promise<RpcCounter> {
  const upstream = new URL(target);
  const counter = { requests: 0, calls: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      counter.requests++;
      try {
        const parsed = JSON.parse(body.toString()) as unknown;
        counter.calls += Array.isArray(parsed) ? parsed.length : 1;
      } catch {
        counter.calls++;
      }
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, path: '/', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        get requests() {
          return counter.requests;
        },
        get calls() {
          return counter.calls;
        },
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

async function rpcBatch(url: string, calls: { method: string; params: unknown[] }[]): Promise<unknown[]> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map((c, id) => ({ jsonrpc: '2.0', id, ...c }))),
  });
  const answers = (await response.json()) as { id: number; result?: unknown; error?: { message: string } }[];
  const failed = answers.find((a) => a.error);
  if (failed) throw new Error(`anvil: ${failed.error!.message}`);
  return answers.sort((a, b) => a.id - b.id).map((a) => a.result);
}

const balanceSlotOf = (wallet: Address, mappingSlot: number): Hex =>
  keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [wallet, BigInt(mappingSlot)]));

/**
 * Gives each wallet one pass by writing the ERC-721's balance mapping directly (anvil_setStorageAt,
 * 500 to a JSON-RPC batch): ten thousand mint transactions take anvil minutes, and the drop only
 * asks balanceOf, which the contract answers from that storage as it would after a mint. The
 * mapping's slot is found by minting one real pass to a probe wallet and looking for its 1.
 */
export async function givePasses(chain: LocalChain, contracts: DeployedDemoContracts, wallets: Address[]): Promise<void> {
  const probe = getAddress(`0xbe4d${'0'.repeat(36)}`);
  await mintDemoHoldings(chain, contracts, { erc721: [{ to: probe, tokenId: 10_000_000n }] });
  const candidates = Array.from({ length: 16 }, (_, slot) => slot);
  const values = await rpcBatch(chain.rpcUrl, candidates.map((slot) => ({ method: 'eth_getStorageAt', params: [contracts.erc721, balanceSlotOf(probe, slot), 'latest'] })));
  const slot = candidates.find((_, i) => BigInt(values[i] as string) === 1n);
  if (slot === undefined) throw new Error('the pass contract keeps its balances where this benchmark does not look');
  const one = `0x${'0'.repeat(63)}1`;
  for (let at = 0; at < wallets.length; at += 500) {
    await rpcBatch(chain.rpcUrl, wallets.slice(at, at + 500).map((w) => ({ method: 'anvil_setStorageAt', params: [contracts.erc721, balanceSlotOf(w, slot), one] })));
  }
}

export type TokenGate = {
  /** CHAIN_RPC_URLS for the data plane: through the counting relay. */
  env: Record<string, string>;
  contracts: DeployedDemoContracts;
  /** One HostileToken per way a gate can misbehave (huge return, gas burner, revert, garbage): the rush beside the drop gates on them. */
  hostile: Address[];
  holders: number;
  rpc: RpcCounter;
  stop(): Promise<void>;
};

/**
 * The token-gated drop's chain: a local anvil with the demo ERC-721 ("Nebula Pass"), a pass
 * minted to every other one of the first `entrants` entrants' wallets, and those wallets seeded
 * verified (as a signed link would leave them). The entrants are the users the keys file was made
 * for, in the same order (entrant-keys.ts). `stop` removes the wallets and stops the chain.
 */
export async function prepareTokenGate(database: Database, manifest: Manifest, entrants: number, log: (line: string) => void): Promise<TokenGate> {
  const started = performance.now();
  const chain: LocalChain = await startAnvil({ blockTime: 1 });
  try {
    const contracts = await deployDemoContracts(chain, { name: 'Nebula Pass', symbol: 'NEB' });
    const hostile: Address[] = [];
    for (const mode of HOSTILE_MODES) hostile.push(await deployHostileToken(chain, mode));
    const users = await database.sql<{ id: string }[]>`select id from users where id <> ${manifest.ownerUserId} order by id limit ${entrants}`;
    const wallets = users.map((u, i) => ({ user_id: u.id, chain: GATE_CHAIN, address: walletOf(i), verified: true }));
    await database.sql`delete from user_wallets where chain = ${GATE_CHAIN} and address like '0xbe4c%'`;
    for (let at = 0; at < wallets.length; at += 5000) await database.sql`insert into user_wallets ${database.sql(wallets.slice(at, at + 5000))} on conflict do nothing`;
    const passes = wallets.flatMap((w, i) => (holdsPass(i) ? [w.address] : []));
    await givePasses(chain, contracts, passes);
    const rpc = await countingRelay(chain.rpcUrl);
    log(`token gate: anvil with the Nebula Pass, ${passes.length.toLocaleString('en-US')} passes given over ${wallets.length.toLocaleString('en-US')} verified wallets in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return {
      env: { CHAIN_RPC_URLS: `${GATE_CHAIN}=${rpc.url}` },
      contracts,
      hostile,
      holders: passes.length,
      rpc,
      async stop() {
        await rpc.close();
        await database.sql`delete from user_wallets where chain = ${GATE_CHAIN} and address like '0xbe4c%'`;
        await chain.stop();
      },
    };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}
