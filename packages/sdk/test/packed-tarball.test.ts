import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemo, newTestDatabase, startDataPlane, type DataPlane, type DemoKeys } from './support/data-plane-service.js';

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPO_ROOT = join(PACKAGE_DIR, '../..');

let dataPlane: DataPlane;
let demo: DemoKeys;
let workDir: string;
let appDir: string;

/**
 * The package as a consumer gets it: `pnpm pack` (which builds dist through prepack), then
 * `npm install <tarball>` into an empty folder with no registry, then plain Node importing
 * '@raffle/sdk' from it against a running data plane.
 */
beforeAll(async () => {
  const testDb = await newTestDatabase();
  demo = await loadDemo(testDb);
  dataPlane = await startDataPlane(testDb);

  workDir = mkdtempSync(join(tmpdir(), 'raffle-sdk-pack-'));
  await run('npx', ['-y', 'pnpm@10.34.8', '--filter', '@raffle/sdk', 'pack', '--pack-destination', workDir], { cwd: REPO_ROOT, timeout: 240_000 });
  const tarball = readdirSync(workDir).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`pnpm pack left no tarball in ${workDir}`);
  appDir = join(workDir, 'app');
  await run('mkdir', [appDir]);
  writeFileSync(join(appDir, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--offline', join(workDir, tarball)], { cwd: appDir, timeout: 120_000 });
}, 300_000);

afterAll(async () => {
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
  it('installs with no dependencies and imports nothing from the monorepo', () => {
    const manifest = JSON.parse(readFileSync(join(installed(), 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(readdirSync(join(appDir, 'node_modules')).filter((n) => !n.startsWith('.'))).toEqual(['@raffle']);
    const js = filesUnder(join(installed(), 'dist')).filter((f) => f.endsWith('.js'));
    expect(js.length).toBeGreaterThan(20);
    expect(filesUnder(join(installed(), 'dist')).filter((f) => f.endsWith('.d.ts')).length).toBe(js.length);
    const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;
    for (const file of js) {
      const specifiers = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) => m[1]!);
      const where = relative(installed(), file);
      for (const specifier of specifiers) {
        expect(specifier.startsWith('.') || (where.startsWith('dist/cli/') && specifier.startsWith('node:')), `${where} imports ${specifier}`).toBe(true);
      }
    }
  });

  it('lists raffles with a real key and verifies a draw, from plain Node', async () => {
    const alice = demo.keys.find((k) => k.kind === 'personal' && k.status === 'active' && k.owner.handle === demo.users.alice.handle)!;
    writeFileSync(
      join(appDir, 'consumer.mjs'),
      `import { RaffleClient, RaffleApiError, verifyDraw, fetchAndVerifyDraw } from '@raffle/sdk';
const { BASE_URL, API_KEY, SLUG } = process.env;
const client = new RaffleClient({ apiKey: API_KEY, baseUrl: BASE_URL });
const slugs = [];
for await (const raffle of client.raffles.list({ limit: 2 })) slugs.push(raffle.slug);
const proof = await client.raffles.drawProof(SLUG);
const publicCheck = await fetchAndVerifyDraw(SLUG, { baseUrl: BASE_URL });
let missing;
try { await client.raffles.get('no-such-raffle'); } catch (error) { missing = error instanceof RaffleApiError ? error.code : String(error); }
console.log(JSON.stringify({ me: (await client.me.get()).handle, slugs, keyedValid: verifyDraw(proof).valid, publicValid: publicCheck.verification.valid, missing }));
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
    const { stdout } = await run(bin, [demo.raffles.finalizedDraw!.slug, '--base-url', dataPlane.baseUrl], { cwd: appDir, timeout: 60_000 });
    expect(stdout).toMatch(/^VALID/m);
    const failure = await run(bin, ['no-such-raffle', '--base-url', dataPlane.baseUrl], { cwd: appDir, timeout: 60_000 }).catch((e: { code: number; stderr: string }) => e);
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain('404 RAFFLE_NOT_FOUND');
  });
});
