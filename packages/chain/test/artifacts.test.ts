import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, artifactText, compileContracts } from '../scripts/contract-compiler.js';

describe('contract artifacts', () => {
  it('are what the sources beside them compile to (run scripts/compile-contracts.ts after changing a contract)', () => {
    const fresh = compileContracts();
    expect(readdirSync(ARTIFACTS_DIR).sort()).toEqual(fresh.map((artifact) => `${artifact.contractName}.json`).sort());
    for (const artifact of fresh) {
      expect(readFileSync(join(ARTIFACTS_DIR, `${artifact.contractName}.json`), 'utf8'), artifact.contractName).toBe(artifactText(artifact));
    }
  });
});
