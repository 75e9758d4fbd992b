import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

/** What src/local/artifacts/<Name>.json holds: the ABI and bytecode, and what they were built from. */
export type ContractArtifact = {
  contractName: string;
  abi: unknown[];
  bytecode: `0x${string}`;
  deployedBytecode: `0x${string}`;
  solcVersion: string;
  /** sha256 of the contract's own .sol file (OpenZeppelin's sources are pinned by the catalog version). */
  sourceSha256: string;
};

export const CONTRACTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'contracts');
export const ARTIFACTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'local', 'artifacts');

/** anvil 1.7 runs the Prague hardfork; cancun bytecode runs there and on every chain a user names. */
const EVM_VERSION = 'cancun';

const require = createRequire(import.meta.url);

/** Resolves `@openzeppelin/contracts/...` imports from the installed npm package. */
function findImport(path: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(path), 'utf8') };
  } catch {
    return { error: `not found: ${path}` };
  }
}

/** Every contracts/*.sol compiled with solc's standard JSON (optimizer on), one artifact per file's contract of the same name. */
export function compileContracts(): ContractArtifact[] {
  const files = readdirSync(CONTRACTS_DIR)
    .filter((file) => file.endsWith('.sol'))
    .sort();
  const sources = Object.fromEntries(files.map((file) => [file, { content: readFileSync(join(CONTRACTS_DIR, file), 'utf8') }]));
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: 200 },
      // No metadata hash: the bytecode then depends on the sources only, not on file paths or comments' IPFS hash.
      metadata: { bytecodeHash: 'none' },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'));
  return files.map((file) => {
    const contractName = file.replace(/\.sol$/, '');
    const compiled = output.contracts[file]?.[contractName];
    if (!compiled) throw new Error(`${file} has no contract named ${contractName}`);
    return {
      contractName,
      abi: compiled.abi,
      bytecode: `0x${compiled.evm.bytecode.object}`,
      deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
      solcVersion: solc.version() as string,
      sourceSha256: createHash('sha256').update(sources[file]!.content).digest('hex'),
    };
  });
}

/** The artifact file's text, so the committed file and a fresh compile compare byte for byte. */
export function artifactText(artifact: ContractArtifact): string {
  return `${JSON.stringify(artifact, null, 2)}\n`;
}
