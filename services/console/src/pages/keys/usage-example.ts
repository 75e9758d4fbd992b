/** One call a new key may make, as curl and as @raffle/sdk write it. */
type ExampleCall = {
  /** Path on the data plane; `{workspaceId}` is filled in. */
  path: string;
  method?: 'POST';
  /** The SDK statement(s) after `const client = …`. */
  sdk: string;
};

/** What a key of each scope can show off first, most telling first (the scopes a key holds pick one). */
const PERSONAL_CALLS: ReadonlyArray<[scope: string, call: ExampleCall]> = [
  ['profile:read', { path: '/api/v1/me', sdk: 'const me = await client.me.get();\nconsole.log(me.handle);' }],
  ['raffles:read', { path: '/api/v1/raffles', sdk: 'for await (const raffle of client.raffles.list()) console.log(raffle.slug, raffle.status);' }],
  ['entries:read', { path: '/api/v1/entries', sdk: 'for await (const entry of client.entries.list()) console.log(entry.raffleSlug, entry.status);' }],
  ['wins:read', { path: '/api/v1/wins', sdk: 'for await (const win of client.wins.list()) console.log(win.raffle, win.position);' }],
  ['entries:write', { path: '/api/v1/raffles/your-raffle-slug/entries', method: 'POST', sdk: "const entry = await client.raffles.enter('your-raffle-slug');\nconsole.log(entry.id, entry.status);" }],
];

const WORKSPACE_CALLS: ReadonlyArray<[scope: string, call: ExampleCall]> = [
  ['raffles:read', { path: '/api/v1/workspaces/{workspaceId}/raffles', sdk: "for await (const raffle of client.workspaces.raffles.list('{workspaceId}')) console.log(raffle.id, raffle.status);" }],
  ['projects:read', { path: '/api/v1/workspaces/{workspaceId}/projects', sdk: "for await (const project of client.workspaces.projects.list('{workspaceId}')) console.log(project.slug);" }],
  ['entries:read', { path: '/api/v1/workspaces/{workspaceId}/raffles/RAFFLE_ID/entries', sdk: "for await (const entry of client.workspaces.raffles.entries('{workspaceId}', 'RAFFLE_ID')) console.log(entry.userId, entry.entryWeight);" }],
  ['winners:read', { path: '/api/v1/workspaces/{workspaceId}/raffles/RAFFLE_ID/winners', sdk: "const winners = await client.workspaces.raffles.winners('{workspaceId}', 'RAFFLE_ID');\nconsole.log(winners);" }],
];

export type UsageExample = { curl: string; sdk: string };

type KeyUse = {
  kind: 'personal' | 'workspace';
  /** The workspace a workspace key belongs to. */
  workspaceId: string | null;
  scopes: readonly string[];
  /** The plaintext key, shown this once. */
  apiKey: string;
  /** Where the data plane answers for this console: its own origin (it proxies /api/v1, as the ingress does). */
  baseUrl: string;
};

/**
 * A first call with a new key, ready to copy: curl with the key in it, and the same call through
 * @raffle/sdk reading the key from RAFFLE_API_KEY (a program should not hold it in its source).
 * The call is one the key's scopes allow.
 */
export function usageExampleFor({ kind, workspaceId, scopes, apiKey, baseUrl }: KeyUse): UsageExample {
  const calls = kind === 'personal' ? PERSONAL_CALLS : WORKSPACE_CALLS;
  const [, call] = calls.find(([scope]) => scopes.includes(scope)) ?? calls[0]!;
  const fill = (text: string) => text.replaceAll('{workspaceId}', workspaceId ?? 'WORKSPACE_ID');
  const base = baseUrl.replace(/\/+$/, '');
  const curl = [`curl${call.method ? ` -X ${call.method}` : ''} '${base}${fill(call.path)}' \\`, `  -H 'Authorization: Bearer ${apiKey}'`].join('\n');
  const sdk = [
    "import { RaffleClient } from '@raffle/sdk';",
    '',
    `// Run with RAFFLE_API_KEY set to the key above (npm install @raffle/sdk).`,
    `const client = new RaffleClient({ apiKey: process.env.RAFFLE_API_KEY!, baseUrl: '${base}' });`,
    '',
    fill(call.sdk),
  ].join('\n');
  return { curl, sdk };
}
