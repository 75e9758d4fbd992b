import type { FaultMarks } from './fault-scenario.js';
import type { RequestOutcome } from './request-load.js';

/** Transport errors that mean a connection was torn down under a request. */
const RESET_CODES = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);

export type FaultTally = {
  scenario: string;
  sent: number;
  answered: number;
  statuses: Record<string, number>;
  serverErrors: number;
  /** 5xx other than 503: the service did not recognise the outage as one. */
  unexpectedServerErrors: number;
  resets: number;
  /** Other transport failures (refused, timed out…), by code. */
  transportErrors: Record<string, number>;
  writesAcknowledged: number;
  lostWrites: number;
  /** From the dependency's return to the first answer of the final unbroken run of 2xx; null if none came (or nothing comes back, as at shutdown). */
  recoveryMs: number | null;
  measuresRecovery: boolean;
  /** Slowest answer to a request sent while the dependency was down. */
  outageMaxLatencyMs: number | null;
};

const isOk = (o: RequestOutcome) => o.status !== null && o.status >= 200 && o.status < 300;

export function recoveryMsOf(outcomes: RequestOutcome[], backAt: number): number | null {
  const after = outcomes.filter((o) => o.startedAt >= backAt).sort((a, b) => a.startedAt - b.startedAt);
  let firstOfRun: RequestOutcome | null = null;
  for (const o of after) firstOfRun = isOk(o) ? (firstOfRun ?? o) : null;
  return firstOfRun ? Math.round(firstOfRun.finishedAt - backAt) : null;
}

export function tallyFaultScenario(scenario: string, outcomes: RequestOutcome[], marks: FaultMarks, lostWrites: number, options: { measuresRecovery?: boolean } = {}): FaultTally {
  const measuresRecovery = options.measuresRecovery ?? true;
  const statuses: Record<string, number> = {};
  const transportErrors: Record<string, number> = {};
  for (const o of outcomes) {
    if (o.status !== null) statuses[o.status] = (statuses[o.status] ?? 0) + 1;
    else if (!RESET_CODES.has(o.transportError!)) transportErrors[o.transportError!] = (transportErrors[o.transportError!] ?? 0) + 1;
  }
  const during = outcomes.filter((o) => o.startedAt >= marks.downAt && o.startedAt < marks.backAt && o.status !== null);
  return {
    scenario,
    sent: outcomes.length,
    answered: outcomes.filter((o) => o.status !== null).length,
    statuses,
    serverErrors: outcomes.filter((o) => (o.status ?? 0) >= 500).length,
    unexpectedServerErrors: outcomes.filter((o) => (o.status ?? 0) >= 500 && o.status !== 503).length,
    resets: outcomes.filter((o) => o.transportError !== null && RESET_CODES.has(o.transportError)).length,
    transportErrors,
    writesAcknowledged: outcomes.filter((o) => o.kind === 'write' && isOk(o)).length,
    lostWrites,
    recoveryMs: measuresRecovery ? recoveryMsOf(outcomes, marks.backAt) : null,
    measuresRecovery,
    outageMaxLatencyMs: during.length > 0 ? Math.round(Math.max(...during.map((o) => o.finishedAt - o.startedAt))) : null,
  };
}

/** The table the closing note quotes: one line per scenario. */
export function formatFaultTable(service: string, tallies: FaultTally[]): string {
  const header = ['scenario', 'sent', 'answered', 'statuses', '5xx', 'non-503 5xx', 'resets', 'other transport', 'writes acked', 'lost writes', 'recovery ms', 'max outage latency ms'];
  const rows = tallies.map((t) => [
    t.scenario,
    t.sent,
    t.answered,
    Object.entries(t.statuses).map(([s, n]) => `${s}:${n}`).join(' '),
    t.serverErrors,
    t.unexpectedServerErrors,
    t.resets,
    Object.entries(t.transportErrors).map(([c, n]) => `${c}:${n}`).join(' ') || '0',
    t.writesAcknowledged,
    t.lostWrites,
    t.measuresRecovery ? (t.recoveryMs ?? 'never') : 'n/a',
    t.outageMaxLatencyMs ?? '-',
  ].map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [`fault table: ${service}`, line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
