import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { DRAW_ENTRY_ID_PATTERN, DRAW_USER_ID_PATTERN, DRAW_WEIGHT_PATTERN } from '@raffle/contracts';
import { DRAND_DRAW_ALGORITHM, ENTRY_ID_FORMAT, USER_ID_FORMAT, WEIGHT_FORMAT, drawCommitment, parseEntryLines, verifyDraw, type DrawProof } from '@raffle/sdk';
import { beaconDrawProblems, localBeaconChain } from '@raffle/service-kit/testing';
import { addWorkspaceMember, renderDrawEntries } from '@raffle/db';
import { disqualifyWin, enterRaffle, rerollWin, userPrincipal } from '@raffle/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectMatchesSchema } from './support/contract-validator.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { responseViolations } from './support/error-invariants.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';

/**
 * GET /api/v1/raffles/{slug}/draw: the proof of a weighted draw run by the domain's own draw,
 * checked with the SDK's verifyDraw exactly as an outside verifier would.
 */

let db: TestDatabase;
let app: FastifyInstance;
let world: LifecycleWorld;
let viewer: Awaited<ReturnType<LifecycleWorld['entrant']>>;

beforeAll(async () => {
  db = await createTestDatabase();
  world = await createLifecycleWorld(db.database);
  app = await buildTestApp(db.database, db.url);
  viewer = await world.entrant();
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const getProof = (slug: string, headers: Record<string, string> = viewer.headers) => app.inject({ url: `/api/v1/raffles/${slug}/draw`, headers });

function expectError(res: Awaited<ReturnType<typeof getProof>>, status: number, code: string) {
  expect({ status: res.statusCode, code: res.json().code }, res.body).toEqual({ status, code });
  expect(responseViolations(res, { method: 'GET' }), res.body).toEqual([]);
  return res.json() as { message: string };
}

const BONUS = { id: 'bonus', type: 'wallet_connected' as const, label: 'Bonus for an Ethereum wallet', params: { chain: 'ethereum', optional: true, multiplier: 2.5 } };

/** An open weighted raffle with `count` entries, every third one weighted 2.5 by an optional requirement. */
async function raffleWithEntries(count: number, body: Parameters<LifecycleWorld['open']>[0] = {}) {
  const raffle = await world.open({ spots: 3, requirements: [BONUS], ...body });
  for (let i = 0; i < count; i++) {
    const wallets = i % 3 === 0 ? [{ chain: 'ethereum', address: `0x${String(i).padStart(40, '0')}`, verified: true }] : [];
    const { user } = await world.entrant({ wallets });
    // Members may enter a private raffle.
    if (raffle.visibility === 'private') await addWorkspaceMember(world.db, { workspaceId: world.workspace.id, userId: user.id, role: 'member' });
    await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(user.id), source: 'web' });
  }
  return raffle;
}

describe('before the draw', () => {
  it('answers 404 DRAW_NOT_AVAILABLE while open and once closed, saying it has not been drawn', async () => {
    const raffle = await raffleWithEntries(2);
    expect(expectError(await getProof(raffle.slug), 404, 'DRAW_NOT_AVAILABLE').message).toMatch(/not been drawn.*open/);
    await world.close(raffle.id);
    expect(expectError(await getProof(raffle.slug), 404, 'DRAW_NOT_AVAILABLE').message).toMatch(/not been drawn.*closed/);
  });

  it('answers 404 DRAW_NOT_AVAILABLE for a drawn raffle of another mechanic: no weighted draw took place', async () => {
    const raffle = await world.open({ mechanic: 'collection', spots: 2 });
    const { user } = await world.entrant();
    await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(user.id), source: 'web' });
    await world.close(raffle.id);
    await world.draw(raffle.id);
    expect(expectError(await getProof(raffle.slug), 404, 'DRAW_NOT_AVAILABLE').message).toMatch(/collection raffle.*weighted draw/);
  });

  it('answers 404 RAFFLE_NOT_FOUND for unknown slugs, drafts, and private raffles of other workspaces', async () => {
    expectError(await getProof('no-such-raffle'), 404, 'RAFFLE_NOT_FOUND');
    const draft = await world.draft();
    expectError(await getProof(draft.slug), 404, 'RAFFLE_NOT_FOUND');
    const hidden = await raffleWithEntries(2, { visibility: 'private' });
    await world.close(hidden.id);
    await world.draw(hidden.id);
    expectError(await getProof(hidden.slug), 404, 'RAFFLE_NOT_FOUND');
    const member = await world.member();
    expect((await getProof(hidden.slug, member.headers)).statusCode).toBe(200);
  });
});

describe('after the draw', () => {
  let raffle: Awaited<ReturnType<typeof raffleWithEntries>>;
  let commitmentShownBefore: string;
  let proof: DrawProof;

  beforeAll(async () => {
    raffle = await raffleWithEntries(12);
    commitmentShownBefore = (await app.inject({ url: `/api/v1/raffles/${raffle.slug}`, headers: viewer.headers })).json().drawCommitment;
    await world.close(raffle.id);
    await world.draw(raffle.id);
    const res = await getProof(raffle.slug);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json\b/);
    proof = res.json();
  });

  it('matches the DrawProof schema and reproduces as a beacon draw on the pinned chain', () => {
    expectMatchesSchema('DrawProof', proof);
    expect(proof.algorithm).toBe(DRAND_DRAW_ALGORITHM);
    const { chainHash, publicKey, period, genesisTime } = localBeaconChain();
    expect(proof.beacon).toMatchObject({ chainHash, publicKey, period, genesisTime });
    expect(beaconDrawProblems(proof)).toEqual([]);
  });

  it('reveals the seed the commitment published before the draw promised, and serves the frozen entries and the draw\'s winners', async () => {
    expect(commitmentShownBefore).toMatch(/^[0-9a-f]{64}$/);
    expect(proof.drawCommitment).toBe(commitmentShownBefore);
    expect(drawCommitment(Buffer.from(proof.seed, 'hex'))).toBe(commitmentShownBefore);

    const [row] = await db.database.sql<{ seed: string; digest: string; lines: string | null }[]>`
      select r.draw_seed as seed, r.entries_digest as digest, s.entry_lines as lines
      from raffles r join raffle_draw_snapshots s on s.raffle_id = r.id where r.id = ${raffle.id}`;
    // A draw since decision 0030 stores its lines as deflated chunks, read here apart from the route's reader.
    expect(row!.lines).toBeNull();
    const chunks = await db.database.sql<{ bytes: Buffer }[]>`select bytes from raffle_draw_snapshot_chunks where raffle_id = ${raffle.id} order by seq`;
    const lines = Buffer.concat(chunks.map((c) => inflateRawSync(c.bytes))).toString('utf8');
    expect(createHash('sha256').update(lines).digest('hex')).toBe(row!.digest);
    expect(proof.seed).toBe(row!.seed);
    expect(proof.entriesDigest).toBe(row!.digest);
    expect(proof.entries).toEqual(parseEntryLines(lines));
    expect(proof.entries).toHaveLength(12);
    expect(new Set(proof.entries.map((e) => e.weight))).toEqual(new Set(['1', '2.5']));

    const wins = await db.database.sql<{ entryId: string; position: number }[]>`
      select entry_id as "entryId", position from wins where raffle_id = ${raffle.id} and source = 'draw' order by position`;
    expect(proof.winners).toEqual(wins.map((w) => ({ entryId: w.entryId, position: w.position })));
    expect(proof.winners.map((w) => w.position)).toEqual([1, 2, 3]);
  });

  it('is refused by verifyDraw once one entry\'s weight, the seed, or a winner is changed', () => {
    const heavier = { ...proof, entries: proof.entries.map((e, i) => (i === 4 ? { ...e, weight: '7' } : e)) };
    expect(verifyDraw(heavier).valid).toBe(false);
    const otherSeed = { ...proof, seed: (proof.seed[0] === '0' ? '1' : '0') + proof.seed.slice(1) };
    expect(verifyDraw(otherSeed).valid).toBe(false);
    expect(verifyDraw(otherSeed).problems).toContain('sha256(seed) does not match drawCommitment');
    const loser = proof.entries.find((e) => !proof.winners.some((w) => w.entryId === e.id))!;
    const swapped = { ...proof, winners: [{ entryId: loser.id, position: 1 }, ...proof.winners.slice(1)] };
    expect(verifyDraw(swapped).valid).toBe(false);
  });

  it('carries the raffle\'s spots, so a proof with a winner left out is refused', () => {
    expect(proof.spots).toBe(3);
    expect(Object.keys(proof)).toEqual(['algorithm', 'closedAt', 'beacon', 'drawCommitment', 'seed', 'entriesDigest', 'spots', 'entries', 'winners']);
    expect(beaconDrawProblems({ ...proof, winners: proof.winners.slice(0, 2) })).toEqual(["the winners are not the ranking's"]);
  });

  it('is verified by the raffle-verify-draw command over HTTP (exit 0), and refused for a raffle not drawn (exit 2)', async () => {
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const cli = fileURLToPath(import.meta.resolve('@raffle/sdk').replace(/index\.(ts|js)$/, 'cli/verify-draw.$1'));
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, ['--conditions=development', '--import', 'tsx', cli, ...args], { env: { ...process.env, RAFFLE_API_KEY: viewer.apiKey } }, (error, stdout, stderr) =>
          resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
        );
      });
    const ok = await run([address, '--slug', raffle.slug, '--trust-platform-beacon']);
    expect(ok, ok.stderr).toMatchObject({ code: 0 });
    expect(ok.stdout).toMatch(/^VALID/m);
    expect(ok.stdout).toContain('12 entries hash to');
    const open = await world.open();
    const notDrawn = await run([`${address}/api/v1/raffles/${open.slug}/draw`]);
    expect(notDrawn.code).toBe(2);
    expect(notDrawn.stderr).toContain('404 DRAW_NOT_AVAILABLE');
  });

  it('marks a disqualified and rerolled winner, with times, and stays a verifiable proof of the same draw once finalized', async () => {
    const [first] = await db.database.sql<{ id: string; entryId: string }[]>`select id, entry_id as "entryId" from wins where raffle_id = ${raffle.id} and position = 1 and source = 'draw'`;
    const target = { actor: world.team, workspaceId: world.workspace.id, raffleId: raffle.id, winId: first!.id };
    await disqualifyWin(world.db, { ...target, reason: 'test' });
    const { replacement } = await rerollWin(world.db, target);
    await world.finalize(raffle.id);
    const res = await getProof(raffle.slug);
    expect(res.statusCode).toBe(200);
    const changed = res.json() as DrawProof & { disqualifiedWinners: unknown[]; rerolledWinners: unknown[] };
    expectMatchesSchema('DrawProof', changed);
    const { disqualifiedWinners, rerolledWinners, ...drawn } = changed;
    // The draw's own part is untouched: the same winners at their positions.
    expect(drawn).toEqual(proof);
    const [replaced] = await db.database.sql<{ disqualifiedAt: string; replacedAt: string }[]>`
      select disqualified_at as "disqualifiedAt", replaced_at as "replacedAt" from wins where id = ${first!.id}`;
    expect(disqualifiedWinners).toEqual([
      { entryId: first!.entryId, position: 1, disqualifiedAt: new Date(replaced!.disqualifiedAt).toISOString(), replacedAt: new Date(replaced!.replacedAt).toISOString() },
    ]);
    expect(rerolledWinners).toEqual([{ entryId: replacement.entryId, position: 1, selectedAt: replacement.selectedAt.toISOString() }]);
    expect(beaconDrawProblems(changed)).toEqual([]);
    const verified = verifyDraw(changed, { trustedChains: [localBeaconChain()] });
    expect(verified).toMatchObject({ valid: true, failures: [] });
  });

  it('is served byte for byte alike from a snapshot stored as before migration 0017 (its lines in entry_lines, no chunks)', async () => {
    const chunked = await getProof(raffle.slug);
    const chunks = await db.database.sql<{ bytes: Buffer }[]>`select bytes from raffle_draw_snapshot_chunks where raffle_id = ${raffle.id} order by seq`;
    expect(chunks.length).toBeGreaterThan(0);
    const lines = Buffer.concat(chunks.map((c) => inflateRawSync(c.bytes))).toString('utf8');
    await db.database.sql`delete from raffle_draw_snapshot_chunks where raffle_id = ${raffle.id}`;
    await db.database.sql`update raffle_draw_snapshots set entry_lines = ${lines} where raffle_id = ${raffle.id}`;
    const legacy = await getProof(raffle.slug);
    expect(legacy.statusCode).toBe(200);
    expect(legacy.body).toBe(chunked.body);
  });
});

describe('a draw with fewer entries than spots', () => {
  it('names the spots and every entry as a winner, and verifies', async () => {
    const raffle = await raffleWithEntries(2, { spots: 5 });
    await world.close(raffle.id);
    await world.draw(raffle.id);
    const proof = (await getProof(raffle.slug)).json() as DrawProof;
    expectMatchesSchema('DrawProof', proof);
    expect({ spots: proof.spots, entries: proof.entries.length, winners: proof.winners.length }).toEqual({ spots: 5, entries: 2, winners: 2 });
    expect(beaconDrawProblems(proof)).toEqual([]);
  });
});

describe('keys on the draw proof', () => {
  it('refuses a workspace key (403 WRONG_KEY_TYPE) and a personal key without raffles:read (403 INSUFFICIENT_SCOPE)', async () => {
    const raffle = await world.draft();
    const { apiKey } = await world.workspaceKey();
    expectError(await getProof(raffle.slug, { authorization: `Bearer ${apiKey}` }), 403, 'WRONG_KEY_TYPE');
    const lacking = await world.entrant({}, ['profile:read', 'entries:read', 'entries:write', 'wins:read']);
    expectError(await getProof(raffle.slug, lacking.headers), 403, 'INSUFFICIENT_SCOPE');
  });
});

describe('the entry formats', () => {
  it('are the same in the published schema as in the SDK\'s verifier', () => {
    expect([DRAW_ENTRY_ID_PATTERN, DRAW_USER_ID_PATTERN, DRAW_WEIGHT_PATTERN]).toEqual([ENTRY_ID_FORMAT.source, USER_ID_FORMAT.source, WEIGHT_FORMAT.source]);
  });
});

describe('rendering the entries', () => {
  it('writes the snapshot lines as the JSON of the parsed entries, escaping what needs it', () => {
    const plain = 'ent_01:usr_01:1\nent_02:usr_02:2.5\n';
    expect(JSON.parse(renderDrawEntries(plain))).toEqual(parseEntryLines(plain));
    const odd = 'ent_"x":usr_\\y:1\nent_é:usr_\u0001:3\n';
    expect(JSON.parse(renderDrawEntries(odd))).toEqual(parseEntryLines(odd));
    expect(renderDrawEntries('')).toBe('[]');
  });

  // How fast is the draw benchmark's business (bench/); here only that a million render right.
  it('renders a million entries', () => {
    const parts: string[] = [];
    for (let i = 0; i < 1_000_000; i++) parts.push(`ent_${i}:usr_${i}:${i % 7 === 0 ? '2.5' : '1'}\n`);
    const lines = parts.join('');
    const json = renderDrawEntries(lines);
    expect(json.startsWith('[{"id":"ent_0","userId":"usr_0","weight":"2.5"},{"id":"ent_1","userId":"usr_1","weight":"1"},')).toBe(true);
    expect(json.endsWith('{"id":"ent_999999","userId":"usr_999999","weight":"2.5"}]')).toBe(true);
  });
});
