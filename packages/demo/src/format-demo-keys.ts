import { PERSONAL_API_SCOPES, WORKSPACE_API_SCOPES } from '@raffle/contracts';
import type { DemoApiKey, DemoKeys } from './demo-keys.js';

function scopesLabel(key: DemoApiKey): string {
  const all = key.kind === 'personal' ? PERSONAL_API_SCOPES : WORKSPACE_API_SCOPES;
  return key.scopes.length === all.length && all.every((s) => key.scopes.includes(s)) ? `all ${key.kind} scopes` : key.scopes.join(' ');
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The demo keys as a plain-text table, for terminals and logs of development runs. */
export function formatDemoKeys(demo: DemoKeys): string {
  const keyRows = demo.keys.map((k) => [
    k.status,
    k.kind,
    k.workspace ? `${k.workspace.slug} (${k.workspace.id})` : `${k.owner.handle} (${k.owner.userId})`,
    scopesLabel(k),
    k.apiKey,
  ]);
  const raffleRows = Object.entries(demo.raffles).map(([label, r]) => [label, r.status, r.visibility, r.slug, r.id, r.workspaceId]);
  return [
    table(['STATUS', 'KIND', 'FOR', 'SCOPES', 'API KEY'], keyRows),
    '',
    table(['RAFFLE', 'STATUS', 'VISIBILITY', 'SLUG', 'ID', 'WORKSPACE'], raffleRows),
  ].join('\n');
}
