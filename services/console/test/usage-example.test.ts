import { describe, expect, it } from 'vitest';
import { usageExampleFor } from '../src/pages/keys/usage-example.js';

const KEY = `svc_u_${'a'.repeat(36)}`;
const WKEY = `svc_w_${'b'.repeat(36)}`;
const BASE = 'https://console.example.com/';

describe("a new key's usage example", () => {
  it('calls GET /api/v1/me with a personal profile key: curl carries the key, the SDK reads it from RAFFLE_API_KEY', () => {
    const { curl, sdk } = usageExampleFor({ kind: 'personal', workspaceId: null, scopes: ['entries:read', 'profile:read'], apiKey: KEY, baseUrl: BASE });
    expect(curl).toBe(`curl 'https://console.example.com/api/v1/me' \\\n  -H 'Authorization: Bearer ${KEY}'`);
    expect(sdk).toContain("import { RaffleClient } from '@raffle/sdk';");
    expect(sdk).toContain("new RaffleClient({ apiKey: process.env.RAFFLE_API_KEY!, baseUrl: 'https://console.example.com' })");
    expect(sdk).toContain('await client.me.get()');
    expect(sdk).not.toContain(KEY);
  });

  it('picks a call the scopes allow', () => {
    const personal = (scopes: string[]) => usageExampleFor({ kind: 'personal', workspaceId: null, scopes, apiKey: KEY, baseUrl: BASE });
    expect(personal(['wins:read']).curl).toContain('/api/v1/wins');
    expect(personal(['wins:read']).sdk).toContain('client.wins.list()');
    expect(personal(['entries:write']).curl).toMatch(/^curl -X POST '.*\/api\/v1\/raffles\/your-raffle-slug\/entries'/);
    expect(personal(['entries:write']).sdk).toContain("client.raffles.enter('your-raffle-slug')");
  });

  it("names the key's workspace in a workspace key's calls", () => {
    const ws = (scopes: string[]) => usageExampleFor({ kind: 'workspace', workspaceId: 'wsp_123', scopes, apiKey: WKEY, baseUrl: BASE });
    expect(ws(['entries:read', 'raffles:read']).curl).toContain("'https://console.example.com/api/v1/workspaces/wsp_123/raffles'");
    expect(ws(['raffles:read']).sdk).toContain("client.workspaces.raffles.list('wsp_123')");
    expect(ws(['projects:read']).curl).toContain('/api/v1/workspaces/wsp_123/projects');
    expect(ws(['winners:read']).sdk).toContain("client.workspaces.raffles.winners('wsp_123', 'RAFFLE_ID')");
    expect(ws(['projects:read']).curl).toContain(`Bearer ${WKEY}`);
  });
});
