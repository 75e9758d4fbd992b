import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createBeaconClient, type BeaconChain } from '../src/index.js';

const CLI = fileURLToPath(new URL('../src/local-beacon/cli.ts', import.meta.url));

describe('the local beacon CLI', () => {
  it('prints the URL and chain to pin, serves verifiable rounds, keeps its key, and exits on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'local-beacon-cli-'));
    const keyFile = join(dir, 'key.json');
    const genesisTime = Math.floor(Date.now() / 1000) - 10;
    const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', CLI, '--period', '1', '--genesis-time', String(genesisTime), '--key-file', keyFile], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const { url, chain } = JSON.parse(line) as { url: string; chain: BeaconChain };
      expect(chain).toMatchObject({ period: 1, genesisTime });
      await expect(createBeaconClient({ chain, relays: [url] }).fetchRound(5)).resolves.toMatchObject({ round: 5 });
      expect(JSON.parse(await readFile(keyFile, 'utf8'))).toMatchObject({ genesisTime });
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  }, 20_000);
});
