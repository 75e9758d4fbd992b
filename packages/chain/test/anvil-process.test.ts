import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const script = fileURLToPath(new URL('./support/start-and-exit.ts', import.meta.url));

async function answers(rpcUrl: string): Promise<boolean> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(2_000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

describe('the local chain process', () => {
  it('dies with the process that started it, even unstopped', async () => {
    const { stdout } = await run(process.execPath, ['--conditions=development', '--import', 'tsx', script]);
    const rpcUrl = stdout.trim().split('\n').at(-1)!;
    expect(rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // SIGKILL is delivered before the parent's exit returns; give the kernel a moment to close the socket.
    let stillAnswering = true;
    for (let attempt = 0; attempt < 20 && stillAnswering; attempt += 1) {
      stillAnswering = await answers(rpcUrl);
      if (stillAnswering) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(stillAnswering).toBe(false);
  });
});
