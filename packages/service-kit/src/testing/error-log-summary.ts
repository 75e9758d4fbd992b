import type { LogLine } from './service-process.js';

type LoggedError = { type?: string; code?: string; message?: string; cause?: LoggedError };

const describeError = (err: LoggedError | undefined): string => {
  if (!err) return '';
  const own = [err.type, err.code].filter(Boolean).join(' ');
  return err.cause ? `${own} <- ${describeError(err.cause)}` : own;
};

/**
 * The service's error-level log lines grouped by message and error class/code, with counts: what a
 * failed fault expectation needs beside the responses to say why the service answered as it did.
 */
export function errorLogSummary(lines: LogLine[]): string {
  const counts = new Map<string, number>();
  for (const line of lines) {
    if (typeof line.level !== 'number' || line.level < 50) continue;
    const key = `${line.msg ?? ''} [${describeError(line.err as LoggedError | undefined)}]`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${n}× ${key}`).join('\n') || 'no error-level log lines';
}
