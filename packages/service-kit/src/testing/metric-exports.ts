// The metrics the alerts (infra/prometheus/alerts.yaml) and the dashboard
// (infra/grafana/raffle-platform.json) read, and which service exports each. infra/test checks
// that this lists exactly what they read; each service's metrics test checks that it exports
// what is listed for it (missingMetrics).

export type Service = 'data-plane' | 'management' | 'webhook-dispatcher';
const ALL: readonly Service[] = ['data-plane', 'management', 'webhook-dispatcher'];
const APIS: readonly Service[] = ['data-plane', 'management'];

/**
 * Which service exports each metric the alerts and the dashboard use. The infra test checks that
 * this lists exactly the metrics they use; each service's metrics test checks that it exports the
 * ones listed for it.
 */
export const EXPORTED_BY: Record<string, readonly Service[]> = {
  http_request_duration_seconds: ALL,
  auth_failures_total: APIS,
  rate_limit_rejections_total: APIS,
  db_pool_queries: ALL,
  scheduler_last_pass_timestamp_seconds: ['management'],
  scheduler_transition_lag_seconds: ['management'],
  scheduler_failed_transitions_total: ['management'],
  raffle_draws_waiting_on_beacon: ['management'],
  raffle_beacon_fetch_failures_total: ['management'],
  raffle_pending_entries: ['data-plane'],
  raffle_pending_entry_oldest_age_seconds: ['data-plane'],
  raffle_read_replica_staleness_ms: ['data-plane'],
  raffle_read_replica_available: ['data-plane'],
  raffle_reads_total: ['data-plane'],
  raffle_draws_waiting_on_chain: ['management'],
  raffle_draws_waiting_on_provider: ['management'],
  outbox_unpublished_events: ['webhook-dispatcher'],
  outbox_oldest_unpublished_age_seconds: ['webhook-dispatcher'],
  jetstream_consumer_pending_messages: ['webhook-dispatcher'],
  webhook_attempts_total: ['webhook-dispatcher'],
  webhook_delivery_lag_seconds: ['webhook-dispatcher'],
  nodejs_eventloop_lag_p99_seconds: ALL,
  process_resident_memory_bytes: ALL,
  process_cpu_seconds_total: ALL,
};

/** The metrics of `EXPORTED_BY` a service should export and its /metrics body does not declare. */
export function missingMetrics(service: Service, metricsBody: string): string[] {
  const declared = new Set([...metricsBody.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
  return Object.entries(EXPORTED_BY)
    .filter(([name, services]) => services.includes(service) && !declared.has(name))
    .map(([name]) => name);
}
