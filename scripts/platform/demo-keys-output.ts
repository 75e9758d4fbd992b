import { writeFile } from 'node:fs/promises';
import { formatDemoKeys, type DemoKeys } from './db.js';
import type { DemoAllowlistMint } from './demo-allowlist-mint.js';

const keyFor = (demo: DemoKeys, predicate: (k: DemoKeys['keys'][number]) => boolean): string => {
  const key = demo.keys.find(predicate);
  if (!key) throw new Error('the demo dataset lacks a key the curl examples use');
  return key.apiKey;
};

/** Ready-to-paste requests that show the main routes and the main refusals. */
export function curlExamples(demo: DemoKeys, dataPlaneUrl: string): string {
  const personal = keyFor(demo, (k) => k.kind === 'personal' && k.status === 'active' && k.scopes.length > 1);
  const profileOnly = keyFor(demo, (k) => k.kind === 'personal' && k.status === 'active' && k.scopes.length === 1);
  const revoked = keyFor(demo, (k) => k.status === 'revoked');
  const draw = demo.raffles.finalizedDraw!;
  const workspace = keyFor(demo, (k) => k.workspace?.id === draw.workspaceId && k.scopes.length > 1);
  const examples: [string, string][] = [
    ["alice's profile", `curl -s ${dataPlaneUrl}/api/v1/me -H 'Authorization: Bearer ${personal}'`],
    ['published public raffles', `curl -s '${dataPlaneUrl}/api/v1/raffles?limit=5' -H 'Authorization: Bearer ${personal}'`],
    ["alice's wins (X-API-Key works too)", `curl -s ${dataPlaneUrl}/api/v1/wins -H 'X-API-Key: ${personal}'`],
    ["alice's entry in the big draw", `curl -s ${dataPlaneUrl}/api/v1/raffles/${draw.slug}/entries/me -H 'Authorization: Bearer ${personal}'`],
    [
      'entries of the big draw, 3 per page',
      `curl -s '${dataPlaneUrl}/api/v1/workspaces/${draw.workspaceId}/raffles/${draw.id}/entries?limit=3' -H 'Authorization: Bearer ${workspace}'`,
    ],
    [
      'its finalized winners',
      `curl -s ${dataPlaneUrl}/api/v1/workspaces/${draw.workspaceId}/raffles/${draw.id}/winners -H 'Authorization: Bearer ${workspace}'`,
    ],
    ['403 INSUFFICIENT_SCOPE (profile-only key)', `curl -s ${dataPlaneUrl}/api/v1/wins -H 'Authorization: Bearer ${profileOnly}'`],
    ['401 API_KEY_REVOKED', `curl -s ${dataPlaneUrl}/api/v1/me -H 'Authorization: Bearer ${revoked}'`],
  ];
  return examples.map(([what, command]) => `# ${what}\n${command}`).join('\n\n');
}

export function printDemoKeys(demo: DemoKeys, dataPlaneUrl: string): void {
  console.log(`\nDemo API keys (also in .demo-keys.json):\n\n${formatDemoKeys(demo)}\n`);
  console.log(`Try:\n\n${curlExamples(demo, dataPlaneUrl)}\n`);
}

/** The local chain, when one runs: where a script reaches it, and the demo's AllowlistMint (null when none was deployed). */
export type DemoLocalChain = { rpcUrl: string; chainId: number; allowlistMint: DemoAllowlistMint | null };

export async function writeDemoKeysFile(file: string, demo: DemoKeys, services: Record<string, string>, localChain: DemoLocalChain | null = null): Promise<void> {
  await writeFile(file, `${JSON.stringify({ services, localChain, ...demo }, null, 2)}\n`);
}
