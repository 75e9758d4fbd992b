import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { chromium, type Browser } from 'playwright-core';
import { build as viteBuild, createServer as createViteServer, preview as vitePreview } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeDependencyDirs } from './support/runtime-dependencies.js';
import { DEMO_BEACON_ENV, loadDemo, newTestDatabase, startDataPlane, type DataPlane, type DemoKeys } from './support/data-plane-service.js';

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPO_ROOT = join(PACKAGE_DIR, '../..');

let dataPlane: DataPlane;
let demo: DemoKeys;
let workDir: string;
let appDir: string;
let browser: Browser | undefined;

/**
 * The package as a consumer gets it: `pnpm pack` (which builds dist through prepack), then
 * `npm install <tarball>` into an empty folder with no registry, then plain Node importing
 * '@raffle/sdk' from it against a running data plane.
 */
beforeAll(async () => {
  const testDb = await newTestDatabase();
  demo = await loadDemo(testDb);
  dataPlane = await startDataPlane(testDb, DEMO_BEACON_ENV);

  workDir = mkdtempSync(join(tmpdir(), 'raffle-sdk-pack-'));
  await run('npx', ['-y', 'pnpm@10.34.8', '--filter', '@raffle/sdk', 'pack', '--pack-destination', workDir], { cwd: REPO_ROOT, timeout: 240_000 });
  const tarball = readdirSync(workDir).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`pnpm pack left no tarball in ${workDir}`);
  appDir = join(workDir, 'app');
  await run('mkdir', [appDir]);
  writeFileSync(join(appDir, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }));
  // The SDK's own dependencies (@noble/curves, @noble/hashes and what they need) are packed from this workspace's
  // install, as a registry would serve them, so the install needs no network.
  const dependencyTarballs: string[] = [];
  for (const dir of runtimeDependencyDirs(PACKAGE_DIR)) {
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', workDir, dir], { cwd: workDir, timeout: 60_000 });
    dependencyTarballs.push(join(workDir, stdout.trim().split('\n').at(-1)!));
  }
  await run('npm', ['install', '--no-audit', '--no-fund', '--offline', join(workDir, tarball), ...dependencyTarballs], { cwd: appDir, timeout: 120_000 });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await dataPlane?.close();
  await dataPlane?.testDb.drop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const installed = () => join(appDir, 'node_modules/@raffle/sdk');

/** Every file path an `exports` map can resolve to, whatever the conditions. */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  if (exports && typeof exports === 'object') return Object.values(exports).flatMap(exportTargets);
  return [];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('the packed @raffle/sdk', () => {
  it('installs with two dependencies, @noble/curves and @noble/hashes (which curves already needs), and imports nothing from the monorepo', () => {
    const manifest = JSON.parse(readFileSync(join(installed(), 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(['@noble/curves', '@noble/hashes']);
    expect(readdirSync(join(appDir, 'node_modules')).filter((n) => !n.startsWith('.')).sort()).toEqual(['@noble', '@raffle']);
    const js = filesUnder(join(installed(), 'dist')).filter((f) => f.endsWith('.js'));
    expect(js.length).toBeGreaterThan(20);
    expect(filesUnder(join(installed(), 'dist')).filter((f) => f.endsWith('.d.ts')).length).toBe(js.length);
    const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;
    for (const file of js) {
      const specifiers = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => m[1]!);
      const where = relative(installed(), file);
      for (const specifier of specifiers) {
        const allowed = specifier.startsWith('.') || specifier.startsWith('@noble/curves/') || specifier === '@noble/hashes/sha3.js' || (where.startsWith('dist/cli/') && specifier.startsWith('node:'));
        expect(allowed, `${where} imports ${specifier}`).toBe(true);
      }
    }
  });

  it('lists raffles with a real key and verifies a draw, from plain Node', async () => {
    const alice = demo.keys.find((k) => k.kind === 'personal' && k.status === 'active' && k.owner.handle === demo.users.alice.handle)!;
    writeFileSync(
      join(appDir, 'consumer.mjs'),
      `import { RaffleClient, RaffleApiError, verifyDraw, fetchAndVerifyDraw, fetchPlatformBeaconChain, QUICKNET } from '@raffle/sdk';
const { BASE_URL, API_KEY, SLUG } = process.env;
const client = new RaffleClient({ apiKey: API_KEY, baseUrl: BASE_URL });
const slugs = [];
for await (const raffle of client.raffles.list({ limit: 2 })) slugs.push(raffle.slug);
const proof = await client.raffles.drawProof(SLUG);
const publicCheck = await fetchAndVerifyDraw(SLUG, { baseUrl: BASE_URL, trustPlatformBeacon: true });
const trustedChains = [QUICKNET, await fetchPlatformBeaconChain({ baseUrl: BASE_URL })];
let missing;
try { await client.raffles.get('no-such-raffle'); } catch (error) { missing = error instanceof RaffleApiError ? error.code : String(error); }
console.log(JSON.stringify({ me: (await client.me.get()).handle, slugs, keyedValid: verifyDraw(proof, { trustedChains }).valid, publicValid: publicCheck.verification.valid, missing }));
`,
    );
    const { stdout } = await run('node', ['consumer.mjs'], {
      cwd: appDir,
      env: { ...process.env, BASE_URL: dataPlane.baseUrl, API_KEY: alice.apiKey, SLUG: demo.raffles.finalizedDraw!.slug, NODE_OPTIONS: '' },
      timeout: 60_000,
    });
    const result = JSON.parse(stdout) as { me: string; slugs: string[]; keyedValid: boolean; publicValid: boolean; missing: string };
    expect(result.me).toBe(demo.users.alice.handle);
    expect(result.slugs).toContain(demo.raffles.finalizedDraw!.slug);
    expect(new Set(result.slugs).size).toBe(result.slugs.length);
    expect(result).toMatchObject({ keyedValid: true, publicValid: true, missing: 'RAFFLE_NOT_FOUND' });
  });

  it('names in its manifest only files the tarball contains', () => {
    const manifest = JSON.parse(readFileSync(join(installed(), 'package.json'), 'utf8')) as { exports: unknown; types: string; bin: Record<string, string> };
    const targets = [...exportTargets(manifest.exports), manifest.types, ...Object.values(manifest.bin)];
    expect(targets).toContain('./dist/index.js');
    for (const target of targets) expect(existsSync(join(installed(), target)), `${target} is named but not packed`).toBe(true);
  });

  it('imports under the development condition, as a Vite dev server resolves it', async () => {
    // Vite and `node --conditions=development` pick the first matching condition; the workspace's
    // own manifest maps `development` to src/, which a consumer of the tarball does not have.
    writeFileSync(join(appDir, 'development.mjs'), `import { verifyDraw } from '@raffle/sdk';\nconsole.log(typeof verifyDraw);\n`);
    const { stdout } = await run('node', ['--conditions=development', 'development.mjs'], { cwd: appDir, env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 });
    expect(stdout.trim()).toBe('function');
  });

  it('ships the raffle-verify-draw command', async () => {
    const bin = join(appDir, 'node_modules/.bin/raffle-verify-draw');
    const { stdout } = await run(bin, [demo.raffles.finalizedDraw!.slug, '--base-url', dataPlane.baseUrl, '--trust-platform-beacon'], { cwd: appDir, timeout: 60_000 });
    expect(stdout).toMatch(/^VALID/m);
    const failure = await run(bin, ['no-such-raffle', '--base-url', dataPlane.baseUrl], { cwd: appDir, timeout: 60_000 }).catch((e: { code: number; stderr: string }) => e);
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain('404 RAFFLE_NOT_FOUND');
  });

  it('ships the raffle-verify-allowlist command', async () => {
    const bin = join(appDir, 'node_modules/.bin/raffle-verify-allowlist');
    const { stdout } = await run(bin, ['--help'], { cwd: appDir, timeout: 60_000 });
    expect(stdout).toMatch(/^Usage:\n {2}raffle-verify-allowlist <slug>/);
    const failure = await run(bin, ['no-such-raffle', '--base-url', dataPlane.baseUrl], { cwd: appDir, timeout: 60_000 }).catch((e: { code: number; stderr: string }) => e);
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain('404 RAFFLE_NOT_FOUND');
  });
});

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A consumer's TypeScript: the SDK's types in use, and (wrong.ts) two type errors its declarations must catch. */
const CONSUMER_TS = `import { RaffleClient, RaffleApiError, verifyDraw, type DrawProof, type DrawVerification, type PublicRaffle } from '@raffle/sdk';

export async function check(proof: DrawProof, slug: string): Promise<{ valid: boolean; title: string | undefined }> {
  const client = new RaffleClient({ apiKey: 'svc_u_example', baseUrl: 'http://localhost:3000' });
  const verification: DrawVerification = verifyDraw(proof);
  let raffle: PublicRaffle | undefined;
  try {
    raffle = await client.raffles.get(slug);
  } catch (error) {
    if (!(error instanceof RaffleApiError) || error.status !== 404) throw error;
  }
  return { valid: verification.valid, title: raffle?.title };
}
`;
const CONSUMER_TS_WRONG = `import { RaffleClient, verifyDraw } from '@raffle/sdk';
// @ts-expect-error apiKey must be a string
new RaffleClient({ apiKey: 42 });
// @ts-expect-error verifyDraw's result has no winner field
verifyDraw({} as never).winner;
`;

/** What a consumer's page computes with the SDK in the browser, written into #result. */
/** An allowlist proof built here by OpenZeppelin's tree, for the page to check with the bundled SDK (keccak-256 in the browser). */
const ALLOWLIST_TREE = StandardMerkleTree.of(
  [
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '2'],
    ['0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '1'],
    ['0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', '5'],
  ],
  ['address', 'uint256'],
);
const ALLOWLIST_CASE = { root: ALLOWLIST_TREE.root, address: '0xdbf03b407c01e7cd3cbea99509d93f8dddc8c6fb', quantity: '5', proof: ALLOWLIST_TREE.getProof(2) };

const PAGE_MAIN = `import { fetchAndVerifyDraw, fetchPlatformBeaconChain, QUICKNET, verifyDraw, verifyAllowlistProof, RaffleClient, RaffleApiError } from '@raffle/sdk';
const allowlistCase = ${JSON.stringify(ALLOWLIST_CASE)};
const params = new URLSearchParams(location.search);
const output = document.getElementById('result');
try {
  const { proof, verification } = await fetchAndVerifyDraw(params.get('slug'), { baseUrl: params.get('baseUrl'), trustPlatformBeacon: true });
  const tampered = verifyDraw({ ...proof, seed: (proof.seed[0] === '0' ? '1' : '0') + proof.seed.slice(1) }, { trustedChains: [QUICKNET, await fetchPlatformBeaconChain({ baseUrl: params.get('baseUrl') })] });
  const client = new RaffleClient({ apiKey: 'svc_u_not_a_real_key', baseUrl: params.get('baseUrl') });
  output.textContent = JSON.stringify({ valid: verification.valid, winners: verification.recomputedWinners.length, tamperedValid: tampered.valid, client: client instanceof RaffleClient, errorClass: typeof RaffleApiError, allowlist: verifyAllowlistProof(allowlistCase), allowlistWrongQuantity: verifyAllowlistProof({ ...allowlistCase, quantity: 4n }) });
} catch (error) {
  output.textContent = JSON.stringify({ error: String(error) });
}
`;
const PAGE_HTML = '<!doctype html><html><head><meta charset="utf-8"><title>sdk consumer</title></head><body><pre id="result"></pre><script type="module" src="/main.js"></script></body></html>';

/** Opens the page in Chromium and returns what it wrote into #result. */
async function resultOfPage(url: string): Promise<Record<string, unknown>> {
  browser ??= await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.goto(url);
    await page.waitForSelector('#result:not(:empty)', { timeout: 30_000 });
    expect(errors).toEqual([]);
    return JSON.parse((await page.textContent('#result'))!) as Record<string, unknown>;
  } finally {
    await page.close();
  }
}

describe('the packed @raffle/sdk, imported the ways consumers import it', () => {
  it('is ESM only (no require condition), which Node 20 still loads from CommonJS', async () => {
    // The package ships ES modules only. From a .cjs file, import() works on every Node 20, and
    // require() does on Node ≥ 20.19 (require(esm) unflagged; nothing in the SDK awaits at top level).
    const manifest = JSON.parse(readFileSync(join(installed(), 'package.json'), 'utf8')) as { type: string; exports: Record<string, Record<string, string>> };
    expect(manifest.type).toBe('module');
    expect(Object.keys(manifest.exports['.']!)).not.toContain('require');
    writeFileSync(
      join(appDir, 'consumer.cjs'),
      `const required = require('@raffle/sdk');
import('@raffle/sdk').then((imported) => {
  console.log(JSON.stringify({ sameModule: required.verifyDraw === imported.verifyDraw, exports: Object.keys(imported).length, client: typeof new imported.RaffleClient({ apiKey: 'svc_u_x' }).raffles.list }));
});
`,
    );
    const { stdout } = await run('node', ['consumer.cjs'], { cwd: appDir, env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual({ sameModule: true, exports: expect.any(Number) as number, client: 'function' });
    expect((JSON.parse(stdout) as { exports: number }).exports).toBeGreaterThan(20);
  });

  // Concurrently: each is a tsc process of its own.
  it.concurrent.each([
    ['node16', { module: 'node16', moduleResolution: 'node16' }],
    ['bundler', { module: 'preserve', moduleResolution: 'bundler' }],
  ])('type-checks a consumer with moduleResolution %s, its types and all (no skipLibCheck)', async (name, resolution) => {
    const dir = join(appDir, `ts-${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'consumer.ts'), CONSUMER_TS);
    writeFileSync(join(dir, 'wrong.ts'), CONSUMER_TS_WRONG);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      // No @types/node: a browser consumer has none, so the SDK's declarations must not need them.
      JSON.stringify({ compilerOptions: { ...resolution, target: 'es2022', lib: ['es2022', 'dom'], strict: true, noEmit: true, skipLibCheck: false, types: [] }, include: ['*.ts'] }),
    );
    // Clean, with wrong.ts's two @ts-expect-error lines used: had '@raffle/sdk' resolved to no
    // types (any), they would be unused, which tsc reports.
    const result = await run(process.execPath, [TSC, '-p', dir], { cwd: appDir, timeout: 60_000 }).catch((error: { stdout: string }) => error);
    expect((result as { stdout: string }).stdout).toBe('');
  });

  describe('in Chromium, through Vite', () => {
    const pageUrl = (origin: string) => `${origin}/?slug=${encodeURIComponent(demo.raffles.finalizedDraw!.slug)}&baseUrl=${encodeURIComponent(dataPlane.baseUrl)}`;
    const expected = { valid: true, winners: expect.any(Number) as number, tamperedValid: false, client: true, errorClass: 'function', allowlist: true, allowlistWrongQuantity: false };

    beforeAll(() => {
      const page = join(appDir, 'page');
      mkdirSync(page, { recursive: true });
      writeFileSync(join(page, 'index.html'), PAGE_HTML);
      writeFileSync(join(page, 'main.js'), PAGE_MAIN);
    });

    it('a Vite dev server serves a page that verifies a real draw with the SDK', async () => {
      const server = await createViteServer({ root: join(appDir, 'page'), configFile: false, logLevel: 'silent', cacheDir: join(appDir, '.vite'), server: { host: '127.0.0.1', port: 0, strictPort: false } });
      try {
        await server.listen();
        const result = await resultOfPage(pageUrl(server.resolvedUrls!.local[0]!.replace(/\/$/, '')));
        expect(result).toEqual(expected);
      } finally {
        await server.close();
      }
    });

    it('a Vite build of the same page, served statically, does the same', async () => {
      const outDir = join(appDir, 'page-dist');
      await viteBuild({ root: join(appDir, 'page'), configFile: false, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
      expect(readdirSync(join(outDir, 'assets')).some((name) => name.endsWith('.js'))).toBe(true);
      const server = await vitePreview({ root: join(appDir, 'page'), configFile: false, logLevel: 'silent', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false } });
      try {
        const result = await resultOfPage(pageUrl(server.resolvedUrls!.local[0]!.replace(/\/$/, '')));
        expect(result).toEqual(expected);
      } finally {
        await server.close();
      }
    });
  });
});
