import { readFileSync } from 'node:fs';
import { EXPORTED_BY } from '@raffle/service-kit/testing/metric-exports';
import { parse } from 'yaml';

const REPO = new URL('../../', import.meta.url);

export type AlertRule = { alert: string; expr: string; for?: string; labels?: Record<string, string>; annotations?: Record<string, string> };

export function readAlertRules(): AlertRule[] {
  const file = parse(readFileSync(new URL('infra/prometheus/alerts.yaml', REPO), 'utf8')) as { groups: { name: string; rules: AlertRule[] }[] };
  return file.groups.flatMap((group) => group.rules);
}

export type DashboardPanel = { id: number; title: string; targets?: { expr: string }[] };

export function readDashboard(): { uid: string; title: string; panels: DashboardPanel[] } {
  return JSON.parse(readFileSync(new URL('infra/grafana/raffle-platform.json', REPO), 'utf8')) as { uid: string; title: string; panels: DashboardPanel[] };
}

export function readRunbook(): string {
  return readFileSync(new URL('docs/runbook.md', REPO), 'utf8');
}

/** Every PromQL expression of the alerts and the dashboard. */
export function allExpressions(): string[] {
  return [...readAlertRules().map((r) => r.expr), ...readDashboard().panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr))];
}

const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset']);
const HISTOGRAM_SERIES = /_(bucket|count|sum)$/;

/**
 * The metric names a PromQL expression reads: label matchers, strings, ranges and grouping
 * clauses are taken out, then every identifier not called as a function is a metric. Histogram
 * series (`_bucket`, `_count`, `_sum`) are named by their histogram.
 */
export function metricsOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const name = match[0];
    const after = bare.slice(match.index! + name.length);
    if (/^\s*\(/.test(after) || KEYWORDS.has(name)) continue;
    names.add(HISTOGRAM_SERIES.test(name) && EXPORTED_BY[name.replace(HISTOGRAM_SERIES, '')] ? name.replace(HISTOGRAM_SERIES, '') : name);
  }
  return [...names];
}

/** The anchor GitHub gives a markdown heading. */
export const headingAnchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
