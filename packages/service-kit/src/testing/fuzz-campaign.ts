import type { FuzzResponse } from './fuzz-response-check.js';
import type { FuzzRequest } from './openapi-fuzz.js';

export type FuzzFailure = { index: number; request: FuzzRequest; statusCode: number; body: string; violations: string[] };

export type FuzzCampaignResult = {
  requests: number;
  /** Responses by HTTP status: the numbers a closing note quotes. */
  statuses: Record<number, number>;
  /** Responses by operation and status, to see which routes were reached past validation. */
  byOperation: Record<string, Record<number, number>>;
  /** Every request with a violation, in order. */
  failures: FuzzFailure[];
};

/**
 * Sends every request (a few at a time, so database round trips overlap, but no more than a test
 * pool's connections, so none waits for one) and checks each answer.
 * `onResponse` sees each successful answer, e.g. to learn the ids that created resources carry.
 */
export async function runFuzzCampaign(options: {
  requests: Iterable<FuzzRequest>;
  send: (request: FuzzRequest) => Promise<FuzzResponse>;
  violations: (request: FuzzRequest, response: FuzzResponse) => string[];
  onResponse?: (request: FuzzRequest, response: FuzzResponse) => void;
  concurrency?: number;
}): Promise<FuzzCampaignResult> {
  const result: FuzzCampaignResult = { requests: 0, statuses: {}, byOperation: {}, failures: [] };
  const iterator = options.requests[Symbol.iterator]();
  let next = 0;
  const worker = async () => {
    for (let item = iterator.next(); !item.done; item = iterator.next()) {
      const index = next++;
      const request = item.value;
      const response = await options.send(request);
      result.requests++;
      result.statuses[response.statusCode] = (result.statuses[response.statusCode] ?? 0) + 1;
      const perOperation = (result.byOperation[request.operation] ??= {});
      perOperation[response.statusCode] = (perOperation[response.statusCode] ?? 0) + 1;
      const violations = options.violations(request, response);
      if (violations.length > 0) result.failures.push({ index, request, statusCode: response.statusCode, body: response.body, violations });
      options.onResponse?.(request, response);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  result.failures.sort((a, b) => a.index - b.index);
  return result;
}

/**
 * One line per distinct failure (operation, status, first violation) with how often it happened
 * and the first request that showed it: a readable report even when thousands fail alike.
 */
export function describeFailures(failures: readonly FuzzFailure[], limit = 25): string {
  const classes = new Map<string, { count: number; first: FuzzFailure }>();
  for (const failure of failures) {
    const key = `${failure.request.operation} → ${failure.statusCode}: ${failure.violations[0]}`;
    const seen = classes.get(key);
    if (seen) seen.count++;
    else classes.set(key, { count: 1, first: failure });
  }
  return [...classes.entries()]
    .slice(0, limit)
    .map(([key, { count, first }]) => {
      const payload = first.request.payload === undefined ? '' : ` body ${truncate(first.request.payload, 2000)}`;
      return `${count}× ${key}\n    e.g. #${first.index} ${first.request.method} ${truncate(first.request.url, 500)}${payload}\n    → ${truncate(first.body, 300)}`;
    })
    .join('\n');
}

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text);
