import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

type Manifest = { name: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
type WorkspacePackage = { dir: string; manifest: Manifest };

const WORKSPACE: WorkspacePackage[] = ['packages', 'services']
  .flatMap((parent) => readdirSync(path.join(ROOT, parent)).map((name) => path.join(ROOT, parent, name)))
  .concat(path.join(ROOT, 'bench'))
  .filter((dir) => existsSync(path.join(dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest }));
const dirOf = new Map(WORKSPACE.map((p) => [p.manifest.name, p.dir]));

const relative = (dir: string) => path.relative(ROOT, dir);
const workspaceDirs = (deps: Record<string, string> | undefined) =>
  Object.keys(deps ?? {}).flatMap((name) => (dirOf.has(name) ? [relative(dirOf.get(name)!)] : []));

/** The folders a tsconfig's references point at (a reference names a folder or a file in one). */
function referencedDirs(configFile: string): string[] {
  const { config, error } = ts.readConfigFile(configFile, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const references = (config as { references?: { path: string }[] }).references ?? [];
  return references.map(({ path: target }) => {
    const resolved = path.resolve(path.dirname(configFile), target);
    return relative(resolved.endsWith('.json') ? path.dirname(resolved) : resolved);
  });
}

const configsOf = (dir: string) => readdirSync(dir).filter((name) => /^tsconfig.*\.json$/.test(name) && name !== 'tsconfig.build.json');
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/**
 * `tsc -b` reads a workspace dependency as its declarations only through a project reference;
 * without one it silently checks that package's sources again inside the importing project (slower
 * every run, which is what project references are for). So references follow package.json.
 */
describe('project references', () => {
  it("each package's sources reference exactly the workspace packages it depends on", () => {
    const mismatches = WORKSPACE.filter((p) => existsSync(path.join(p.dir, 'tsconfig.src.json'))).flatMap(({ dir, manifest }) => {
      const references = sorted(referencedDirs(path.join(dir, 'tsconfig.src.json')));
      const dependencies = sorted(workspaceDirs(manifest.dependencies));
      return references.join() === dependencies.join() ? [] : [{ package: relative(dir), references, dependencies }];
    });
    expect(mismatches).toEqual([]);
  });

  it('each package references every workspace package it lists, dev dependencies included', () => {
    const missing = WORKSPACE.flatMap(({ dir, manifest }) => {
      const references = new Set(configsOf(dir).flatMap((name) => referencedDirs(path.join(dir, name))));
      const listed = [...workspaceDirs(manifest.dependencies), ...workspaceDirs(manifest.devDependencies)];
      return listed.filter((d) => !references.has(d)).map((d) => `${relative(dir)} lists ${d}`);
    });
    expect(missing).toEqual([]);
  });

  it('the root tsconfig.json builds every workspace package', () => {
    const references = new Set(referencedDirs(path.join(ROOT, 'tsconfig.json')));
    expect(WORKSPACE.map((p) => relative(p.dir)).filter((d) => !references.has(d))).toEqual([]);
  });
});
