import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
type CpuProfile = { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };

/** A span of CLOCK_MONOTONIC in microseconds: V8 stamps samples on that clock, as `process.hrtime` reads it. */
export type MonotonicWindow = { fromUs: number; toUs: number };
export const monotonicNowUs = () => Number(process.hrtime.bigint() / 1000n);

export type ProfileSummary = { totalMs: number; byPackage: Array<[string, number]>; byFunction: Array<[string, number]> };

/** Who owns a script: its npm package, a workspace package, Node itself, or V8 bookkeeping. */
function ownerOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pnpm) return pnpm[1]!;
  if (url.startsWith('node:')) return 'node (core)';
  const workspace = /\/(services|packages)\/([^/]+)\//.exec(url);
  if (workspace) return `@raffle/${workspace[2]}`;
  return url;
}

/**
 * Self time of a V8 .cpuprofile by package and by function, as percentages of the sampled
 * time inside `windows` (the measured runs: start-up and warm-ups are left out). "(idle)" is
 * the event loop waiting, i.e. headroom the process did not use.
 */
export function summariseProfile(file: string, windows: MonotonicWindow[], top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (!windows.some((w) => at >= w.fromUs && at <= w.toUs)) return;
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    const owner = ownerOf(url, functionName);
    const name = `${functionName || '(anonymous)'} ${owner}${url ? `:${lineNumber + 1}` : ''}`;
    byPackage.set(owner, (byPackage.get(owner) ?? 0) + delta);
    byFunction.set(name, (byFunction.get(name) ?? 0) + delta);
    total += delta;
  });
  const ranked = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => [name, Math.round((us / total) * 1000) / 10] as [string, number]);
  return { totalMs: Math.round(total / 1000), byPackage: ranked(byPackage), byFunction: ranked(byFunction) };
}

export function renderProfileSummary(summary: ProfileSummary, title = 'Data-plane CPU profile of the measured runs'): string {
  const table = (title: string, rows: Array<[string, number]>) =>
    [`| ${title} | self % |`, '|---|---:|', ...rows.map(([name, share]) => `| ${name.replace(/\|/g, '\\|')} | ${share} |`)].join('\n');
  return [
    `${title} (${summary.totalMs} ms sampled, self time):`,
    '',
    table('Package', summary.byPackage),
    '',
    table('Function', summary.byFunction),
  ].join('\n');
}

/** The main thread's profile is the biggest file (worker threads, tsx's loader among them, sample mostly idle). */
export function profileSummaryOf(dir: string, windows: MonotonicWindow[], title?: string): string | undefined {
  const [file] = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size);
  if (!file) return undefined;
  return `${renderProfileSummary(summariseProfile(file, windows), title)}

Profile: ${file} (open in Chrome DevTools › Performance)`;
}
