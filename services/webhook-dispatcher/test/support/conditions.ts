/**
 * Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`
 * with `what` and the last value seen: tests wait on the state they expect, never on a fixed sleep.
 */
export async function waitUntil<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    last = value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${String(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A clock the test moves by hand; the app reads copies, so nothing it does can move it. */
export function manualClock(start: Date = new Date()) {
  const current = new Date(start.getTime());
  return {
    now: () => new Date(current.getTime()),
    advance(ms: number) {
      current.setTime(current.getTime() + ms);
    },
    set(date: Date) {
      current.setTime(date.getTime());
    },
  };
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
