import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * Whether rate-limit counters are currently shared (Redis) or per instance (memory fallback).
 * An outage is logged once when it starts and once when it ends, never per request, and is
 * visible in metrics: `rate_limit_store_degraded` (1 while counting in memory),
 * `rate_limit_store_outages_total` and `rate_limit_local_decisions_total`.
 */
export class RateLimitStoreHealth {
  #degraded = false;
  readonly #degradedGauge: Gauge;
  readonly #outages: Counter;
  readonly #localDecisions: Counter;

  constructor(
    private readonly log: FastifyBaseLogger,
    registry: Registry,
  ) {
    this.#degradedGauge = new Gauge({
      name: 'rate_limit_store_degraded',
      help: '1 while Redis is unreachable and rate limits are counted per instance in memory, else 0',
      registers: [registry],
    });
    this.#degradedGauge.set(0);
    this.#outages = new Counter({
      name: 'rate_limit_store_outages_total',
      help: 'Times the shared rate-limit store (Redis) became unreachable and counting fell back to memory',
      registers: [registry],
    });
    this.#localDecisions = new Counter({
      name: 'rate_limit_local_decisions_total',
      help: 'Requests counted in this instance\'s memory because Redis was unreachable',
      registers: [registry],
    });
  }

  get degraded(): boolean {
    return this.#degraded;
  }

  /** A Redis command failed or Redis is not connected: count in memory until it answers again. */
  markUnreachable(reason: string) {
    if (this.#degraded) return;
    this.#degraded = true;
    this.#degradedGauge.set(1);
    this.#outages.inc();
    this.log.warn({ reason }, 'rate-limit Redis unreachable: counting per instance in memory until it returns');
  }

  /** A Redis command succeeded: counters are shared again. */
  markReachable() {
    if (!this.#degraded) return;
    this.#degraded = false;
    this.#degradedGauge.set(0);
    this.log.info('rate-limit Redis reachable again: counters are shared by every instance');
  }

  countLocalDecision() {
    this.#localDecisions.inc();
  }
}
