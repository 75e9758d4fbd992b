/** One attempt's result and what it decides for its delivery. */
export type AttemptOutcome = {
  deliveryId: string;
  endpointId: string;
  attemptNumber: number;
  succeeded: boolean;
  responseStatus: number | null;
  failureKind: string | null;
  latencyMs: number;
  responseBody: string | null;
  at: Date;
  /** What follows: done, another attempt at `nextAttemptAt`, or given up. */
  deliveryStatus: 'succeeded' | 'pending' | 'failed';
  nextAttemptAt: Date | null;
  /** The endpoint answered 410 Gone: it is disabled at once. */
  gone: boolean;
};
