import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The anvil executable from npm: @foundry-rs/anvil's platform package (an optional dependency
 * holding the prebuilt binary at bin/anvil), resolved next to the wrapper. Calling the binary
 * directly skips the wrapper's node process and its postinstall script, which installs need not run.
 */
export function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  const wrapper = require.resolve('@foundry-rs/anvil/package.json');
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  let manifest: string;
  try {
    manifest = createRequire(wrapper).resolve(`${platformPackage}/package.json`);
  } catch {
    throw new Error(`anvil: ${platformPackage} is not installed (an optional dependency of @foundry-rs/anvil; is this platform supported?)`);
  }
  const binary = join(dirname(manifest), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  if (!existsSync(binary)) throw new Error(`anvil: ${binary} is missing`);
  return binary;
}
