/**
 * Compiles packages/chain/contracts/*.sol into the committed artifacts the local chain deploys:
 *   node --conditions=development --import tsx packages/chain/scripts/compile-contracts.ts
 * A test (artifacts.test.ts) fails when the committed artifacts differ from a fresh compile.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS_DIR, artifactText, compileContracts } from './contract-compiler.js';

for (const artifact of compileContracts()) {
  writeFileSync(join(ARTIFACTS_DIR, `${artifact.contractName}.json`), artifactText(artifact));
  console.log(`${artifact.contractName}: ${(artifact.deployedBytecode.length - 2) / 2} bytes deployed`);
}
