/** One fixed-window counter after an increment: requests counted so far, and milliseconds until the window resets. */
export type WindowCount = { current: number; ttl: number };

/** Where a bucket's fixed-window counters live (Redis, shared by instances, or this instance's memory). */
export interface WindowCounters {
  increment(key: string, windowMs: number): Promise<WindowCount>;
}
