import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../src/local/index.js';

const SCRIPT = fileURLToPath(new URL('./support/oauth-after-undici-7.ts', import.meta.url));

/** Runs the script in a process of its own, where its first import decides the global dispatcher, and reads its one-line report. */
async function reportOfFreshProcess(): Promise<unknown> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code).toBe(0);
  return JSON.parse(output);
}

describe('OAuth with undici 7 loaded first (its Agent the global dispatcher, as in a service that loads @raffle/webhooks before @raffle/social)', () => {
  it('links, refreshes and revokes at both providers all the same', async () => {
    const done = (accountId: string) => ({ exchange: 'ok', refresh: 'ok', accountId, revoke: 'ok', afterRevoke: 'token_rejected' });
    expect(await reportOfFreshProcess()).toEqual({
      globalDispatcherIsUndici7Agent: true,
      discord: done(DEMO_ACCOUNTS.alice.discord.id),
      x: done(DEMO_ACCOUNTS.alice.x.id),
    });
  }, 30_000);
});
