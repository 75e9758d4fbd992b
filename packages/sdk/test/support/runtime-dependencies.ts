import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

type Manifest = { name: string; dependencies?: Record<string, string> };

/** Where Node would find `name` from a package in `fromDir`: its own node_modules, then each ancestor's. */
function resolvePackageDir(name: string, fromDir: string): string {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) throw new Error(`${name} is not installed where ${fromDir} would find it`);
  }
}

/**
 * The folders of every runtime dependency of the package in `packageDir`, transitively, as this
 * workspace installed them: packed next to the SDK's tarball, they let `npm install --offline`
 * give a consumer folder the SDK's dependencies without a registry.
 */
export function runtimeDependencyDirs(packageDir: string): string[] {
  const found = new Map<string, string>();
  const pending = [realpathSync(packageDir)];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      if (found.has(name)) continue;
      const depDir = resolvePackageDir(name, dir);
      found.set(name, depDir);
      pending.push(depDir);
    }
  }
  return [...found.values()];
}
