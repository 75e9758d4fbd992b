import type { FaultScenarioRun } from './fault-scenario.js';
import type { ShutdownScenarioRun } from './shutdown-scenario.js';
import type { RequestOutcome } from './request-load.js';

/** The service's own error body for a status (each service has its own shape). */
export type ErrorBodyCheck = (body: unknown, status: number) => boolean;

/**
 * Violations grouped by what went wrong and on which route, with a count and the first example,
 * so a failing expectation reads as a short list instead of hundreds of requests.
 */
function grouped(violations: { what: string; outcome: RequestOutcome }[]): string[] {
  const groups = new Map<string, { count: number; example: RequestOutcome }>();
  for (const { what, outcome } of violations) {
    const key = `${outcome.label}: ${what}`;
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { count: 1, example: outcome });
  }
  return [...groups].map(([key, { count, example }]) => `${key} (${count}×; e.g. ${JSON.stringify(example.body ?? example.transportError).slice(0, 300)})`);
}

/** Every request answered (no reset, no refusal, no timeout) and every 503 is the service's error body with Retry-After. */
function answerViolations(outcome: RequestOutcome, isErrorBody: ErrorBodyCheck): string[] {
  if (outcome.status === null) return [`no answer (${outcome.transportError})`];
  if (outcome.status === 503) {
    const problems = [];
    if (!isErrorBody(outcome.body, 503)) problems.push('503 without the service error body');
    if (!outcome.headers['retry-after']) problems.push('503 without Retry-After');
    return problems;
  }
  if (outcome.status >= 500) return [`answered ${outcome.status}`];
  return [];
}

/**
 * A database outage: everything answered, 5xx only as 503 with the error body and Retry-After,
 * and a request sent while the database is down answered within `maxLatencyMs` (2xx from a cache,
 * or 503), not left hanging on the driver's reconnect.
 */
export function databaseOutageViolations(run: FaultScenarioRun, isErrorBody: ErrorBodyCheck, maxLatencyMs = 1000): string[] {
  const { downAt, backAt } = run.marks;
  const violations: { what: string; outcome: RequestOutcome }[] = [];
  for (const outcome of run.outcomes) {
    for (const what of answerViolations(outcome, isErrorBody)) violations.push({ what, outcome });
    const duringOutage = outcome.startedAt >= downAt && outcome.startedAt < backAt;
    const latency = outcome.finishedAt - outcome.startedAt;
    if (duringOutage && latency > maxLatencyMs) violations.push({ what: `answered after more than ${maxLatencyMs} ms while the database was down`, outcome });
  }
  return grouped(violations);
}

/**
 * A dependency that is slow rather than gone (a table locked for longer than any request may
 * wait): everything answered, 5xx only as 503 with the error body and Retry-After, and every
 * request, whenever it was sent, answered within `maxLatencyMs`: the service's own bound, not the
 * lock's length, decides how long a caller waits.
 */
export function boundedAnswerViolations(run: FaultScenarioRun, isErrorBody: ErrorBodyCheck, maxLatencyMs: number): string[] {
  const violations: { what: string; outcome: RequestOutcome }[] = [];
  for (const outcome of run.outcomes) {
    for (const what of answerViolations(outcome, isErrorBody)) violations.push({ what, outcome });
    if (outcome.status !== null && outcome.finishedAt - outcome.startedAt > maxLatencyMs) violations.push({ what: `answered after more than ${maxLatencyMs} ms`, outcome });
  }
  return grouped(violations);
}

/** A dependency the service must do without (Redis, NATS): everything answered and nothing 5xx. */
export function noServerErrorViolations(run: FaultScenarioRun): string[] {
  return grouped(
    run.outcomes.flatMap((outcome) => {
      if (outcome.status === null) return [{ what: `no answer (${outcome.transportError})`, outcome }];
      if (outcome.status >= 500) return [{ what: `answered ${outcome.status}`, outcome }];
      return [];
    }),
  );
}

/** Statuses other than the expected ones (e.g. reads must stay 200 while NATS is down). */
export function unexpectedStatusViolations(run: FaultScenarioRun, expected: (outcome: RequestOutcome) => boolean): string[] {
  return grouped(run.outcomes.filter((o) => !expected(o)).map((outcome) => ({ what: `answered ${outcome.status ?? outcome.transportError}`, outcome })));
}

/**
 * A graceful shutdown: the request in flight at SIGTERM completes (2xx); every other request is
 * answered, 5xx only as 503 with the error body and Retry-After, or refused once the listener is
 * closed (a client then tries another instance); no connection is torn down under a request; the
 * process exits 0.
 */
export function shutdownViolations(run: ShutdownScenarioRun, isErrorBody: ErrorBodyCheck): string[] {
  const violations: { what: string; outcome: RequestOutcome }[] = [];
  if (run.inFlight.status === null || run.inFlight.status >= 300) violations.push({ what: 'the request in flight at SIGTERM did not complete with 2xx', outcome: run.inFlight });
  for (const outcome of [...run.outcomes, ...run.onIdleConnections]) {
    if (outcome.transportError === 'ECONNREFUSED') continue;
    for (const what of answerViolations(outcome, isErrorBody)) violations.push({ what, outcome });
  }
  const problems = grouped(violations);
  if (run.exit.code !== 0) problems.push(`the process exited with ${run.exit.code ?? run.exit.signal} ${run.exitAfterMs} ms after SIGTERM`);
  return problems;
}
