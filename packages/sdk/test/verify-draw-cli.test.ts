import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLocalBeacon } from '../../beacon/src/index.js';
import { QUICKNET_ROUNDS } from './support/quicknet-rounds.js';
import { EXIT, judgeDrawProof, parseVerifyDrawArgs, proofShapeProblems, runVerifyDraw, type CliIo } from '../src/cli/draw-verdict.js';
import { beaconRoundForClose, fetchAndVerifyDraw, generateSecretKey, publicKeyOf, QUICKNET, rankEntries, signRound, type DrawProof } from '../src/index.js';
import { beaconBlock, drawEntries, foldedFirstWinner, honestDrandProof, honestProof, localChain, localDrandProof, reforgedProof } from './support/draw-proofs.js';

const seed = createHash('sha256').update('cli').digest('hex');
const entries = drawEntries(25, (i) => (i % 5 === 0 ? '3' : '1'));
const honest: DrawProof = honestProof(seed, entries, 3);

describe('judgeDrawProof (the CLI\'s core)', () => {
  it('finds an honest proof valid and reports every check as ok', () => {
    const verdict = judgeDrawProof(JSON.parse(JSON.stringify(honest)), 'https://raffles.test/api/v1/raffles/x/draw');
    expect(verdict.valid).toBe(true);
    expect(verdict.report).toContain('Draw proof of https://raffles.test/api/v1/raffles/x/draw');
    expect(verdict.report).toMatch(/algorithm\s+ok\s+es-hmac-sha256-v1/);
    expect(verdict.report).toMatch(/commitment\s+ok\s+sha256\(seed\) = /);
    expect(verdict.report).toMatch(/entry fields\s+ok\s+every id, user id and weight in its exact format/);
    expect(verdict.report).toMatch(/entries\s+ok\s+25 entries hash to/);
    expect(verdict.report).toMatch(/winner count\s+ok\s+3 of 3 \(3 spots, 25 entries\)/);
    expect(verdict.report).toMatch(/winners\s+ok\s+3 winners reproduced from the seed/);
    expect(verdict.report).toContain(`#1 ${honest.winners[0]!.entryId}`);
    expect(verdict.report).toMatch(/^VALID/m);
    expect(verdict.report).not.toContain('FAIL');
  });

  it('names the failing check when a weight, the seed or a winner was changed', () => {
    const weight = judgeDrawProof({ ...honest, entries: entries.map((e, i) => (i === 3 ? { ...e, weight: '9' } : e)) });
    expect(weight.valid).toBe(false);
    expect(weight.report).toMatch(/entries\s+FAIL/);
    expect(weight.report).toMatch(/^INVALID/m);

    const otherSeed = createHash('sha256').update('other').digest('hex');
    const seedSwap = judgeDrawProof({ ...honest, seed: otherSeed });
    expect(seedSwap.valid).toBe(false);
    expect(seedSwap.report).toMatch(/commitment\s+FAIL/);

    const loser = rankEntries(Buffer.from(seed, 'hex'), entries)[10]!;
    const winner = judgeDrawProof({ ...honest, winners: [{ entryId: loser.id, position: 1 }, ...honest.winners.slice(1)] });
    expect(winner.valid).toBe(false);
    expect(winner.report).toMatch(/winners\s+FAIL/);
    expect(winner.report).toContain(`#1 ${loser.id}  (the draw gives ${honest.winners[0]!.entryId})`);

    const algorithm = judgeDrawProof({ ...honest, algorithm: 'coin-flip' });
    expect(algorithm.valid).toBe(false);
    expect(algorithm.report).toMatch(/algorithm\s+FAIL\s+coin-flip/);
  });

  it('refuses the forgeries that used to pass: a winner folded into a neighbour, missing winners, a weight of Infinity', () => {
    const folded = judgeDrawProof(foldedFirstWinner(entries, 3).forged);
    expect(folded.valid).toBe(false);
    expect(folded.report).toMatch(/entry fields\s+FAIL/);
    expect(folded.report).toMatch(/entries\s+ok/);
    expect(folded.report).toMatch(/ - userId ".*" of entry "ent_\w+" is not a user id .*\[user_id_malformed\]$/m);

    const short = judgeDrawProof({ ...honest, winners: honest.winners.slice(0, 1) });
    expect(short.valid).toBe(false);
    expect(short.report).toMatch(/winner count\s+FAIL\s+1 of 3 \(3 spots, 25 entries\)/);
    expect(short.report).toContain('the proof lists 1 winner; 3 spots among 25 entries make 3 [winner_count_mismatch]');
    const none = judgeDrawProof({ ...honest, winners: [] });
    expect(none.valid).toBe(false);
    expect(none.report).toMatch(/winner count\s+FAIL\s+0 of 3/);

    const loser = rankEntries(Buffer.from(seed, 'hex'), entries)[10]!;
    const infinite = reforgedProof(honest, entries.map((e) => (e.id === loser.id ? { ...e, weight: 'Infinity' } : e)));
    expect(infinite.winners[0]!.entryId).toBe(loser.id);
    const weight = judgeDrawProof(infinite);
    expect(weight.valid).toBe(false);
    expect(weight.report).toMatch(/entry fields\s+FAIL/);
    expect(weight.report).toContain(`weight "Infinity" of entry "${loser.id}" is not a plain positive decimal`);
    expect(weight.report).toContain('[weight_malformed]');
  });

  it('refuses what is not a proof at all, saying what is missing', () => {
    expect(proofShapeProblems(honest)).toEqual([]);
    expect(proofShapeProblems([])).toEqual(['the proof is not a JSON object']);
    const { seed: _seed, ...noSeed } = honest;
    const { spots: _spots, ...noSpots } = honest;
    expect(proofShapeProblems(noSpots)).toEqual(['spots is missing or not a positive integer']);
    expect(proofShapeProblems({ ...honest, spots: 0 })).toEqual(['spots is missing or not a positive integer']);
    const verdict = judgeDrawProof({ ...noSeed, entries: [{ id: 1 }] });
    expect(verdict.valid).toBe(false);
    expect(verdict.report).toContain('seed is missing or not a string');
    expect(verdict.report).toContain('every entry needs string id, userId and weight');
  });
});

describe('parseVerifyDrawArgs', () => {
  const env = { RAFFLE_API_KEY: 'svc_u_env' };

  it('looks a slug up on the public route under --base-url, RAFFLE_BASE_URL or localhost:3000, with no key', () => {
    expect(parseVerifyDrawArgs(['summer'], env)).toEqual({ url: 'http://localhost:3000/public/v1/raffles/summer/draw' });
    expect(parseVerifyDrawArgs(['summer', '--trust-platform-beacon'], env)).toEqual({ url: 'http://localhost:3000/public/v1/raffles/summer/draw', trustPlatformBeacon: true });
    expect(parseVerifyDrawArgs(['summer'], { RAFFLE_BASE_URL: 'https://env.test' })).toEqual({ url: 'https://env.test/public/v1/raffles/summer/draw' });
    expect(parseVerifyDrawArgs(['summer', '--base-url', 'https://h.test/prefix/'], { RAFFLE_BASE_URL: 'https://env.test' })).toEqual({
      url: 'https://h.test/prefix/public/v1/raffles/summer/draw',
    });
    expect(parseVerifyDrawArgs(['a b'], {})).toEqual({ url: 'http://localhost:3000/public/v1/raffles/a%20b/draw' });
  });

  it('takes a public proof URL without a key, a keyed one with the key, and adds /draw to a raffle URL', () => {
    expect(parseVerifyDrawArgs(['https://h.test/public/v1/raffles/summer/draw'], env)).toEqual({ url: 'https://h.test/public/v1/raffles/summer/draw' });
    expect(parseVerifyDrawArgs(['https://h.test/api/v1/raffles/summer/draw'], env)).toEqual({ url: 'https://h.test/api/v1/raffles/summer/draw', apiKey: 'svc_u_env' });
    expect(parseVerifyDrawArgs(['https://h.test/api/v1/raffles/summer'], env)).toMatchObject({ url: 'https://h.test/api/v1/raffles/summer/draw' });
    expect(parseVerifyDrawArgs(['https://h.test/public/v1/raffles/summer'], env)).toEqual({ url: 'https://h.test/public/v1/raffles/summer/draw' });
  });

  it('keeps the older `<base-url> --slug <slug>` form, now on the public route', () => {
    expect(parseVerifyDrawArgs(['https://h.test', '--slug', 'summer'], env)).toEqual({ url: 'https://h.test/public/v1/raffles/summer/draw' });
    expect(parseVerifyDrawArgs(['https://h.test/prefix/', '--slug=a b'], env)).toEqual({ url: 'https://h.test/prefix/public/v1/raffles/a%20b/draw' });
  });

  it('prefers --api-key over RAFFLE_API_KEY for a keyed URL', () => {
    expect(parseVerifyDrawArgs(['https://h.test/api/v1/raffles/s/draw', '--api-key', 'svc_u_flag'], env)).toMatchObject({ apiKey: 'svc_u_flag' });
  });

  it('reports usage errors', () => {
    const error = (argv: string[], e: Record<string, string> = env) => (parseVerifyDrawArgs(argv, e) as { error?: string }).error;
    expect(error([])).toMatch(/slug or a proof URL/);
    expect(error(['a', 'b'])).toMatch(/exactly one/);
    expect(error(['not/a/slug'])).toMatch(/not a raffle slug/);
    expect(error(['ftp://h.test/api/v1/raffles/s/draw'])).toMatch(/http/);
    expect(error(['https://h.test'])).toMatch(/not a draw proof URL/);
    expect(error(['https://h.test/api/v1/raffles/s/draw'], {})).toMatch(/API key/);
    expect(error(['https://h.test/api/v1/raffles/s/draw', '--slug', 's'])).toMatch(/not both/);
    expect(error(['https://h.test', '--slug', 'a/b'])).toMatch(/--slug/);
    expect(error(['https://h.test', '--bogus'])).toMatch(/bogus/);
    expect(parseVerifyDrawArgs(['--help'], env)).toEqual({ help: true });
  });
});

describe('runVerifyDraw', () => {
  function io(respond: (url: string, init?: RequestInit) => Response | Promise<Response>) {
    const out: string[] = [];
    const err: string[] = [];
    const calls: Array<{ url: string; init?: RequestInit }> = [];
    const cli: CliIo = {
      fetch: (async (url: string, init?: RequestInit) => {
        calls.push({ url, init });
        return respond(url, init);
      }) as typeof fetch,
      out: (t) => out.push(t),
      err: (t) => err.push(t),
    };
    return { cli, out, err, calls };
  }
  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  const headerOf = (call: { init?: RequestInit }, name: string) => (call.init!.headers as Record<string, string>)[name];

  it('fetches a slug from the public route with no key, and exits 3 for a valid seed-only draw: valid but predictable', async () => {
    const ok = io(() => json(honest));
    expect(await runVerifyDraw(['x', '--base-url', 'https://h.test'], { RAFFLE_API_KEY: 'svc_u_k' }, ok.cli)).toBe(EXIT.predictable);
    expect(ok.calls[0]!.url).toBe('https://h.test/public/v1/raffles/x/draw');
    expect(headerOf(ok.calls[0]!, 'authorization')).toBeUndefined();
    expect(ok.out.join('\n')).toMatch(/^VALID BUT PREDICTABLE: /m);
  });

  it('fetches a keyed URL with the key as a Bearer token, and exits 1 for an invalid draw', async () => {
    const ok = io(() => json(honest));
    expect(await runVerifyDraw(['https://h.test/api/v1/raffles/x/draw', '--api-key', 'svc_u_k'], {}, ok.cli)).toBe(EXIT.predictable);
    expect(ok.calls[0]!.url).toBe('https://h.test/api/v1/raffles/x/draw');
    expect(headerOf(ok.calls[0]!, 'authorization')).toBe('Bearer svc_u_k');

    const bad = io(() => json({ ...honest, seed: createHash('sha256').update('x').digest('hex') }));
    expect(await runVerifyDraw(['https://h.test/api/v1/raffles/x/draw'], { RAFFLE_API_KEY: 'k' }, bad.cli)).toBe(EXIT.invalid);
    expect(bad.out.join('\n')).toMatch(/^INVALID/m);
  });

  it('exits 2 on usage errors, network errors, error answers and non-JSON bodies', async () => {
    const usage = io(() => json(honest));
    expect(await runVerifyDraw([], {}, usage.cli)).toBe(EXIT.usage);
    expect(usage.calls).toHaveLength(0);
    expect(usage.err.join('\n')).toContain('Usage:');

    const down = io(() => {
      throw new TypeError('fetch failed');
    });
    expect(await runVerifyDraw(['https://h.test/api/v1/raffles/x/draw'], { RAFFLE_API_KEY: 'k' }, down.cli)).toBe(EXIT.usage);
    expect(down.err.join('\n')).toContain('fetch failed');

    const notDrawn = io(() => json({ statusCode: 404, code: 'DRAW_NOT_AVAILABLE', message: 'the raffle has not been drawn yet' }, 404));
    expect(await runVerifyDraw(['https://h.test/api/v1/raffles/x/draw'], { RAFFLE_API_KEY: 'k' }, notDrawn.cli)).toBe(EXIT.usage);
    expect(notDrawn.err.join('\n')).toContain('404 DRAW_NOT_AVAILABLE: the raffle has not been drawn yet');

    const html = io(() => new Response('<html>bad gateway</html>', { status: 502 }));
    expect(await runVerifyDraw(['https://h.test/api/v1/raffles/x/draw'], { RAFFLE_API_KEY: 'k' }, html.cli)).toBe(EXIT.usage);
    expect(html.err.join('\n')).toContain('502 with a body that is not JSON');
    expect(html.calls).toHaveLength(3); // the first attempt and the SDK's two retries of a GET
  });

  it('prints the usage and exits 0 for --help', async () => {
    const help = io(() => json(honest));
    expect(await runVerifyDraw(['--help'], {}, help.cli)).toBe(EXIT.valid);
    expect(help.out.join('\n')).toContain('raffle-verify-draw');
  });
});

describe('raffle-verify-draw on a draw with a beacon round', () => {
  const { round, signature } = QUICKNET_ROUNDS.round1000;
  // Quicknet round 1000 is due 2023-08-23 15:59:24 UTC; a close at 15:59:19 (round 998) draws with it.
  const quicknetProof = honestDrandProof(seed, entries, 3, '2023-08-23T15:59:19Z', beaconBlock(QUICKNET, round, signature));
  const local = localChain();
  const localProof = localDrandProof(local, seed, entries, 3, '2025-06-15T19:50:41Z');
  const inline = `${local.chain.chainHash}:${local.chain.publicKey}:${local.chain.period}:${local.chain.genesisTime}`;

  const io = (respond: (url: string) => Response) => {
    const out: string[] = [];
    const err: string[] = [];
    const calls: string[] = [];
    const cli: CliIo = {
      fetch: (async (url: string) => {
        calls.push(url);
        return respond(url);
      }) as typeof fetch,
      out: (t) => out.push(t),
      err: (t) => err.push(t),
    };
    return { cli, out, err, calls };
  };
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

  it('names quicknet, the round, its time and the close, and says every beacon check passed', () => {
    const verdict = judgeDrawProof(quicknetProof);
    expect(verdict.valid).toBe(true);
    expect(verdict.report).toMatch(/algorithm\s+ok\s+es-hmac-sha256-drand-v1 \(the seed mixed with a public beacon round\)/);
    expect(verdict.report).toMatch(/beacon chain\s+ok\s+drand's quicknet \(the League of Entropy's public beacon\)/);
    expect(verdict.report).toMatch(
      /beacon round\s+ok\s+round 1000, due 2023-08-23 15:59:24 UTC: the operator says entries closed 2023-08-23 15:59:19 UTC, during round 998; if so, nobody could know this round's value while they were open\. closedAt is the operator's claim: nothing outside the proof holds it here/,
    );
    expect(verdict.report).toMatch(/beacon signature\s+ok\s+the chain's own public key signed round 1000/);
    expect(verdict.report).toMatch(/beacon randomness\s+ok\s+fe290beca10872ef… is sha256 of the signature/);
    expect(verdict.report).toMatch(/winners\s+ok\s+3 winners reproduced from the seed mixed with the beacon round/);
    expect(verdict.report).toMatch(/^VALID: .*beacon round 1000, published after entries closed\.$/m);
    expect(verdict.report).not.toContain('FAIL');
  });

  it('refuses a local beacon nobody said to trust, and says how to trust it', () => {
    const verdict = judgeDrawProof(localProof);
    expect(verdict.valid).toBe(false);
    expect(verdict.report).toMatch(/beacon chain\s+FAIL\s+chain [0-9a-f]{16}… is not one this verifier trusts/);
    expect(verdict.report).toMatch(/beacon signature\s+FAIL\s+not checked: the chain is not trusted/);
    expect(verdict.report).toContain('[untrusted_chain]');
    expect(verdict.report).toMatch(/^To trust a beacon of your own, pass --trust-chain, --trust-beacon-url or --trust-platform-beacon/m);
  });

  it("refuses quicknet's hash with the forger's key, and a round the close does not fix", () => {
    const forger = generateSecretKey();
    const forged = honestDrandProof(seed, entries, 3, '2023-08-23T15:59:19Z', { ...beaconBlock(QUICKNET, round, signRound(forger, round)), publicKey: publicKeyOf(forger) });
    const verdict = judgeDrawProof(forged);
    expect(verdict.valid).toBe(false);
    expect(verdict.report).toMatch(/beacon chain\s+FAIL\s+claims to be drand's quicknet .* but carries another public key/);
    expect(verdict.report).toMatch(/beacon signature\s+FAIL/);
    const late = judgeDrawProof({ ...quicknetProof, closedAt: '2023-08-23T15:59:22Z' });
    expect(late.valid).toBe(false);
    expect(late.report).toMatch(/beacon round\s+FAIL\s+round 1000, due 2023-08-23 15:59:24 UTC, but entries closed 2023-08-23 15:59:22 UTC, which fixes round 1001/);
    expect(late.report).toContain('[beacon_round_mismatch]');
  });

  it('trusts a local chain given inline or as a JSON file, and says it is not the League of Entropy', async () => {
    const inlineRun = io(() => json(localProof));
    expect(await runVerifyDraw(['x', '--base-url', 'https://h.test', '--trust-chain', inline], {}, inlineRun.cli)).toBe(EXIT.valid);
    const report = inlineRun.out.join('\n');
    expect(report).toMatch(/beacon chain\s+ok\s+a beacon you chose to trust \(chain [0-9a-f]{16}…\), not the League of Entropy/);
    expect(report).toMatch(/^VALID: .*whoever runs it holds its key/m);

    const dir = mkdtempSync(join(tmpdir(), 'trust-chain-'));
    const file = join(dir, 'chain.json');
    writeFileSync(file, JSON.stringify({ ...local.chain }));
    const fileRun = io(() => json(localProof));
    expect(await runVerifyDraw(['x', '--base-url', 'https://h.test', '--trust-chain', file], {}, fileRun.cli)).toBe(EXIT.valid);
  });

  it("trusts the chain a beacon URL's /info describes, only when told to", async () => {
    const info = { public_key: local.chain.publicKey, period: local.chain.period, genesis_time: local.chain.genesisTime, hash: local.chain.chainHash, schemeID: 'bls-unchained-g1-rfc9380' };
    const run = io((url) => json(url.endsWith('/info') ? info : localProof));
    expect(await runVerifyDraw(['x', '--base-url', 'https://h.test', '--trust-beacon-url', 'http://beacon.test:8081/'], {}, run.cli)).toBe(EXIT.valid);
    expect(run.calls).toEqual(['http://beacon.test:8081/info', 'https://h.test/public/v1/raffles/x/draw', 'https://h.test/public/v1/raffles/x/commitment']);
    expect(run.out.join('\n')).toMatch(/beacon chain\s+ok\s+the beacon at http:\/\/beacon.test:8081\/ \(chain [0-9a-f]{16}…\), not the League of Entropy/);

    const untold = io(() => json(localProof));
    expect(await runVerifyDraw(['x', '--base-url', 'https://h.test'], {}, untold.cli)).toBe(EXIT.invalid);
    expect(untold.calls).toEqual(['https://h.test/public/v1/raffles/x/draw', 'https://h.test/public/v1/raffles/x/commitment']);
  });

  it('exits 2 for a chain it cannot read: a malformed inline value, a missing file, an /info of another scheme', async () => {
    const bad = async (argv: string[], respond: (url: string) => Response = () => json(localProof)) => {
      const run = io(respond);
      expect(await runVerifyDraw(['x', '--base-url', 'https://h.test', ...argv], {}, run.cli)).toBe(EXIT.usage);
      return run.err.join('\n');
    };
    expect(await bad(['--trust-chain', 'abc:def:3:0'])).toMatch(/neither chainHash:publicKey:period:genesisTime nor a readable file/);
    expect(await bad(['--trust-chain', '/no/such/chain.json'])).toMatch(/readable file/);
    const chained = { public_key: local.chain.publicKey, period: 30, genesis_time: 1, hash: local.chain.chainHash, schemeID: 'pedersen-bls-chained' };
    expect(await bad(['--trust-beacon-url', 'http://beacon.test'], () => json(chained))).toMatch(/http:\/\/beacon.test\/info is not a beacon chain: it needs the scheme bls-unchained-g1-rfc9380/);
  });

  it('parses the trust flags, repeated, and leaves them out when not given', () => {
    expect(parseVerifyDrawArgs(['s', '--trust-chain', 'a', '--trust-chain', 'b', '--trust-beacon-url', 'http://b.test'], {})).toEqual({
      url: 'http://localhost:3000/public/v1/raffles/s/draw',
      trustChains: ['a', 'b'],
      trustBeaconUrls: ['http://b.test'],
    });
    expect(parseVerifyDrawArgs(['s'], {})).toEqual({ url: 'http://localhost:3000/public/v1/raffles/s/draw' });
  });

  it("verifies a draw on a running local beacon's round, trusting it through its own /info", async () => {
    const now = Math.floor(Date.now() / 1000);
    const beacon = await startLocalBeacon({ period: 1, genesisTime: now - 600, secretKey: generateSecretKey() });
    try {
      const closedAt = new Date((now - 100) * 1000).toISOString();
      const round = beaconRoundForClose(beacon.chain, new Date(closedAt));
      const published = (await (await fetch(`${beacon.url}/public/${round}`)).json()) as { round: number; signature: string; randomness: string };
      const proof = honestDrandProof(seed, entries, 3, closedAt, beaconBlock(beacon.chain, published.round, published.signature));
      expect(proof.beacon!.randomness).toBe(published.randomness);
      const fromBeacon = (url: string) => (url.startsWith(beacon.url) ? fetch(url) : Promise.resolve(json(proof)));
      for (const url of [beacon.url, `${beacon.url}/${beacon.chain.chainHash}`]) {
        const out: string[] = [];
        const cli: CliIo = { fetch: fromBeacon as typeof fetch, out: (t) => out.push(t), err: (t) => out.push(t) };
        expect(await runVerifyDraw(['x', '--base-url', 'https://h.test', '--trust-beacon-url', url], {}, cli)).toBe(EXIT.valid);
        expect(out.join('\n')).toMatch(new RegExp(`beacon round\\s+ok\\s+round ${round}, due `));
      }
    } finally {
      await beacon.close();
    }
  });

  it('fetchAndVerifyDraw passes trustedChains to the verifier', async () => {
    const fetchProof = (async () => json(localProof)) as unknown as typeof fetch;
    expect((await fetchAndVerifyDraw('x', { baseUrl: 'https://h.test', fetch: fetchProof })).verification.failures.map((f) => f.reason)).toEqual(['untrusted_chain']);
    const trusted = await fetchAndVerifyDraw('x', { baseUrl: 'https://h.test', fetch: fetchProof, trustedChains: [local.chain] });
    expect(trusted.verification).toMatchObject({ valid: true, beacon: { chainHash: local.chain.chainHash, trusted: 'custom' } });
  });
});
