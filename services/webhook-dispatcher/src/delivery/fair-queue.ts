/**
 * Jobs grouped by endpoint and served round-robin, with a cap on how many of one endpoint run at
 * once: a slow or dead endpoint can hold only its share of the worker, never delay the others.
 */
export class FairQueue<J extends { endpointId: string }> {
  private readonly queues = new Map<string, J[]>();
  private readonly running = new Map<string, number>();
  /** Endpoints with queued work, in service order. */
  private ring: string[] = [];
  private queued = 0;

  constructor(private readonly perEndpointLimit: number) {}

  get size(): number {
    return this.queued;
  }

  /** Endpoints with jobs waiting here. */
  queuedEndpoints(): string[] {
    return [...this.queues.keys()];
  }

  queuedFor(endpointId: string): number {
    return this.queues.get(endpointId)?.length ?? 0;
  }

  runningFor(endpointId: string): number {
    return this.running.get(endpointId) ?? 0;
  }

  push(job: J): void {
    const queue = this.queues.get(job.endpointId);
    if (queue) queue.push(job);
    else {
      this.queues.set(job.endpointId, [job]);
      this.ring.push(job.endpointId);
    }
    this.queued += 1;
  }

  /** The next job of the next endpoint below its running cap, marked running; null if none may start. */
  take(): J | null {
    for (let i = 0; i < this.ring.length; i++) {
      const endpointId = this.ring.shift()!;
      const queue = this.queues.get(endpointId)!;
      if (this.runningFor(endpointId) >= this.perEndpointLimit) {
        this.ring.push(endpointId);
        continue;
      }
      const job = queue.shift()!;
      this.queued -= 1;
      if (queue.length > 0) this.ring.push(endpointId);
      else this.queues.delete(endpointId);
      this.running.set(endpointId, this.runningFor(endpointId) + 1);
      return job;
    }
    return null;
  }

  done(endpointId: string): void {
    const n = this.runningFor(endpointId) - 1;
    if (n <= 0) this.running.delete(endpointId);
    else this.running.set(endpointId, n);
  }

  /** Removes and returns every queued (not running) job, optionally of one endpoint only. */
  drain(endpointId?: string): J[] {
    const ids = endpointId ? [endpointId] : [...this.queues.keys()];
    const out: J[] = [];
    for (const id of ids) {
      const queue = this.queues.get(id);
      if (!queue) continue;
      out.push(...queue);
      this.queued -= queue.length;
      this.queues.delete(id);
    }
    this.ring = this.ring.filter((id) => this.queues.has(id));
    return out;
  }
}
