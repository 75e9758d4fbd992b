import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const dockerfile = readFileSync(path.join(REPO, 'Dockerfile'), 'utf8');
// Continuation lines joined, as Docker reads them.
const instructions = dockerfile.replace(/\\\n/g, ' ');

/** Every folder under services/ is a service the image can run. */
const services = readdirSync(path.join(REPO, 'services'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(REPO, 'services', entry.name, 'package.json')))
  .map((entry) => entry.name)
  .sort();

const packageJson = (service: string) => JSON.parse(readFileSync(path.join(REPO, 'services', service, 'package.json'), 'utf8')) as { scripts: Record<string, string>; dependencies?: Record<string, string> };

/** rootDir and outDir of the tsconfig a service's `build` script compiles with. */
function compiledBy(service: string): { rootDir: string; outDir: string } {
  const build = packageJson(service).scripts.build ?? '';
  const project = /tsc -p (\S+)/.exec(build)?.[1];
  expect(project, `${service}'s build script compiles with tsc -p`).toBeDefined();
  const read = ts.readConfigFile(path.join(REPO, 'services', service, project!), ts.sys.readFile);
  expect(read.error).toBeUndefined();
  return read.config.compilerOptions as { rootDir: string; outDir: string };
}

describe('Dockerfile', () => {
  it('the SERVICE check accepts every service under services/, and nothing else', () => {
    const accepted = /case "\$\{SERVICE\}" in\s+([a-z|-]+)\)/.exec(instructions)?.[1]?.split('|').sort();
    expect(accepted).toEqual(services);
    // The error message names them too.
    const message = /SERVICE must be ([^(]+)\(/.exec(instructions)?.[1] ?? '';
    for (const service of services) expect(message, service).toContain(service);
  });

  it('the image runs `node dist/server.js` from the service folder, and the deploy stage checks it is there', () => {
    expect(instructions).toMatch(/^CMD \["node", "dist\/server\.js"\]$/m);
    expect(instructions).toContain('test -f "services/${SERVICE}/dist/server.js"');
  });

  it.each(services)('%s: every package the deploy stage requires in the service folder is a dependency of it', (service) => {
    const { dependencies = {} } = packageJson(service);
    const required = [...instructions.matchAll(/&& test -[fd] "services\/\$\{SERVICE\}\/node_modules\/((?:@[a-z-]+\/)?[a-z-]+)\//g)].map((m) => m[1]!);
    expect(required.filter((name) => !(name in dependencies))).toEqual([]);
  });

  it.each(services)('%s: `pnpm build` writes dist/server.js, and `start` runs it', (service) => {
    const { rootDir, outDir } = compiledBy(service);
    expect(path.normalize(outDir)).toBe('dist');
    expect(existsSync(path.join(REPO, 'services', service, rootDir, 'server.ts')), `${rootDir}/server.ts`).toBe(true);
    expect(packageJson(service).scripts.start).toBe('node dist/server.js');
  });

  it("the console's image holds its built app where the server serves it from by default, and checks it", () => {
    const vite = readFileSync(path.join(REPO, 'services/console/vite.config.ts'), 'utf8');
    expect(vite).toMatch(/outDir: 'dist\/public'/);
    expect(packageJson('console').scripts.build).toMatch(/^vite build && /);
    const config = readFileSync(path.join(REPO, 'services/console/server/config.ts'), 'utf8');
    expect(config).toContain("new URL('../dist/public', import.meta.url)");
    expect(instructions).toContain('test -f services/console/dist/public/index.html');
  });
});
