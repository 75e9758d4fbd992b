import { describe, expect, it } from 'vitest';
import { EXPORTED_BY } from '@raffle/service-kit/testing/metric-exports';
import { allExpressions, headingAnchor, metricsOf, readAlertRules, readDashboard, readRunbook } from './observability-files.js';

/** Series Prometheus makes itself, not a service. */
const PROMETHEUS_OWN = new Set(['up']);

describe('alerts, dashboard and runbook', () => {
  const rules = readAlertRules();
  const dashboard = readDashboard();
  const runbookAnchors = new Set([...readRunbook().matchAll(/^#{2,3} (.+)$/gm)].map((m) => headingAnchor(m[1]!)));

  it('reads the metric names out of PromQL (the check below can fail)', () => {
    expect(metricsOf('sum by (service) (rate(http_request_duration_seconds_count{status_code=~"5.."}[5m])) > 0.01').sort()).toEqual(['http_request_duration_seconds']);
    expect(metricsOf('time() - max(scheduler_last_pass_timestamp_seconds) > 60')).toEqual(['scheduler_last_pass_timestamp_seconds']);
    expect(metricsOf('rate(some_metric_nobody_exports[5m])')).toEqual(['some_metric_nobody_exports']);
  });

  it('every metric the alerts and the dashboard use is exported by a service, and the exporters list nothing else', () => {
    const used = new Set(allExpressions().flatMap(metricsOf).filter((name) => !PROMETHEUS_OWN.has(name)));
    expect([...used].filter((name) => !EXPORTED_BY[name])).toEqual([]);
    expect(Object.keys(EXPORTED_BY).filter((name) => !used.has(name))).toEqual([]);
  });

  it.each(rules.map((r) => [r.alert, r] as const))('%s: a duration, a severity, a summary and a runbook section that exists', (_name, rule) => {
    expect(rule.for).toMatch(/^\d+[smh]$/);
    expect(['page', 'warning', 'info']).toContain(rule.labels?.severity);
    expect(rule.annotations?.summary).toBeTruthy();
    const [file, anchor] = (rule.annotations?.runbook ?? '').split('#');
    expect(file).toBe('docs/runbook.md');
    expect(runbookAnchors.has(anchor!), `docs/runbook.md has a section #${anchor}`).toBe(true);
  });

  it('every alert is explained in the runbook, and the runbook explains no alert that does not exist', () => {
    const alertAnchors = rules.map((r) => headingAnchor(r.alert));
    expect(alertAnchors.filter((a) => !runbookAnchors.has(a))).toEqual([]);
    const documented = [...readRunbook().matchAll(/^### (Raffle\w+)$/gm)].map((m) => m[1]!);
    expect(documented.filter((name) => !rules.some((r) => r.alert === name))).toEqual([]);
  });

  it('the dashboard: a stable uid, a Prometheus data source variable, every panel with a query', () => {
    expect(dashboard.uid).toBe('raffle-platform');
    expect(dashboard.panels.length).toBeGreaterThan(0);
    for (const panel of dashboard.panels) expect(panel.targets?.[0]?.expr, panel.title).toBeTruthy();
    expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
  });
});
