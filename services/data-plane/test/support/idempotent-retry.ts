import { clock, sendRepeatedly, type PlannedRequest, type RequestOutcome } from '@raffle/service-kit/testing/faults';

/** Without Retry-After a client polls about this often (the SDK's first backoff is below 500 ms). */
const POLL_MS = 250;
/** The SDK sleeps through a Retry-After of up to a minute; a test client need not wait that long at once. */
const MAX_WAIT_MS = 5000;

export type RetryRun = {
  /** Every answer, in order; the last one is the final (2xx, or the one at the deadline). */
  attempts: RequestOutcome[];
  /** When the final 2xx arrived (the shared clock), or null if none came before the deadline. */
  succeededAt: number | null;
};

/**
 * A client retrying one request with its Idempotency-Key, the same bytes each time, as the SDK
 * does: after a 503 or a 409 IDEMPOTENCY_KEY_IN_PROGRESS it waits what Retry-After says (a short
 * poll when the answer has none), and it stops at the first 2xx, at any other answer, or at `deadline`.
 */
export async function retryUntilSettled(origin: string, planned: PlannedRequest, deadline: number): Promise<RetryRun> {
  const attempts: RequestOutcome[] = [];
  while (clock() < deadline) {
    // A new connection each time, as a client whose connection failed would make.
    const [outcome] = await sendRepeatedly(origin, planned, 1, 10_000);
    attempts.push(outcome!);
    if (outcome!.status !== null && outcome!.status >= 200 && outcome!.status < 300) return { attempts, succeededAt: outcome!.finishedAt };
    if (!isWorthRetrying(outcome!)) break;
    const retryAfter = Number(outcome!.headers['retry-after']);
    const waitMs = Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, MAX_WAIT_MS) : POLL_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.min(waitMs, Math.max(0, deadline - clock()))));
  }
  return { attempts, succeededAt: null };
}

const isWorthRetrying = (o: RequestOutcome) =>
  o.status === null || o.status === 502 || o.status === 503 || o.status === 504 || (o.status === 409 && codeOf(o) === 'IDEMPOTENCY_KEY_IN_PROGRESS');

export const codeOf = (o: RequestOutcome) => (o.body as { code?: string } | null)?.code ?? null;

/** "201, 503, 409 IDEMPOTENCY_KEY_IN_PROGRESS (no Retry-After) ×12": a failure message that reads as the client saw it. */
export function describeAttempts(attempts: RequestOutcome[]): string {
  const labels = attempts.map((o) => {
    if (o.status === null) return `no answer (${o.transportError})`;
    const code = codeOf(o);
    return `${o.status}${code && o.status >= 400 ? ` ${code}` : ''}${o.status >= 400 && !o.headers['retry-after'] ? ' (no Retry-After)' : ''}`;
  });
  const runs: string[] = [];
  for (let i = 0; i < labels.length; ) {
    let j = i;
    while (j < labels.length && labels[j] === labels[i]) j++;
    runs.push(j - i > 1 ? `${labels[i]} ×${j - i}` : labels[i]!);
    i = j;
  }
  return runs.join(', ');
}
