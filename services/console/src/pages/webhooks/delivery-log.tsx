import type { WebhookDeliveryAttempt } from '@raffle/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Permission } from '../../scope/scope.js';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { EmptyState } from '../../ui/EmptyState.js';
import { Pager } from '../../ui/Pager.js';
import { usePagedList } from '../../ui/usePagedList.js';
import { DeliveryAttemptCard } from './delivery-attempt-card.js';
import { webhookKeys, type WebhookApi, type WebhookScope } from './webhook-api.js';

type Props = {
  scope: WebhookScope;
  api: WebhookApi;
  endpointId: string;
  /** Keep polling until then even with nothing pending: a just-sent event has no attempt yet. */
  watchUntil: number;
  retry: Permission;
  onRetry(attempt: WebhookDeliveryAttempt): Promise<unknown>;
};

/** Quick while an attempt is expected any moment; slower while a retry may be minutes away. */
const POLL_WATCHING_MS = 2000;
const POLL_PENDING_MS = 10_000;

/** The endpoint's attempts, newest first; polled while a delivery is pending or one was just sent. */
export function DeliveryLog({ scope, api, endpointId, watchUntil, retry, onRetry }: Props) {
  const queryClient = useQueryClient();
  const attempts = usePagedList(webhookKeys.attempts(scope, endpointId), (cursor) => api.listAttempts(endpointId).page(cursor ? { cursor } : {}));
  const pending = attempts.items.some((a) => a.deliveryStatus === 'pending');
  const watching = useWatching(watchUntil);
  const pollMs = watching ? POLL_WATCHING_MS : pending ? POLL_PENDING_MS : null;

  useEffect(() => {
    if (pollMs === null) return;
    // The endpoint too: a 410 or five days of failures disable it while we watch.
    const refresh = () =>
      Promise.all([webhookKeys.attempts(scope, endpointId), webhookKeys.endpoint(scope, endpointId)].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    const timer = window.setInterval(() => void refresh(), pollMs);
    return () => window.clearInterval(timer);
  }, [pollMs, queryClient, scope, endpointId]);

  // Retry acts on a delivery, not an attempt: only each delivery's newest attempt offers it.
  const newestOfItsDelivery = new Set<string>();
  const seen = new Set<string>();
  for (const a of attempts.items) {
    if (!seen.has(a.deliveryId)) newestOfItsDelivery.add(a.id);
    seen.add(a.deliveryId);
  }

  return (
    <section className="card" aria-labelledby="deliveries-title">
      <div className="wh-section-header">
        <h2 id="deliveries-title">Delivery log</h2>
        <button type="button" className="button" onClick={attempts.refetch}>
          Refresh
        </button>
      </div>
      <p className="wh-hint" aria-live="polite">
        {pollMs === null ? 'Newest first. Refresh to see new attempts.' : `Newest first; checking for new attempts every ${pollMs / 1000} seconds.`}
      </p>
      {attempts.error ? (
        <ApiErrorNotice error={attempts.error} />
      ) : attempts.isLoading ? (
        <p aria-live="polite">Loading deliveries…</p>
      ) : attempts.items.length === 0 && !attempts.hasPrev ? (
        <EmptyState title="No deliveries yet">
          Deliveries appear here when an event this endpoint subscribes to happens. Choose <strong>Send test event</strong> to try it now.
        </EmptyState>
      ) : (
        <>
          <ol className="wh-cards" aria-label="Delivery attempts, newest first">
            {attempts.items.map((attempt) => (
              <DeliveryAttemptCard key={attempt.id} attempt={attempt}>
                {newestOfItsDelivery.has(attempt.id) ? <RetryButton attempt={attempt} retry={retry} onRetry={onRetry} /> : null}
              </DeliveryAttemptCard>
            ))}
          </ol>
          <Pager list={attempts} label="Delivery log pages" />
        </>
      )}
    </section>
  );
}

function RetryButton({ attempt, retry, onRetry }: { attempt: WebhookDeliveryAttempt; retry: Permission; onRetry(a: WebhookDeliveryAttempt): Promise<unknown> }) {
  const [busy, setBusy] = useState(false);
  if (!retry.allowed) return <DisabledReason label="Retry" reason={retry.reason ?? 'You cannot retry this delivery.'} />;
  return (
    <button
      type="button"
      className="button"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        void onRetry(attempt).finally(() => setBusy(false));
      }}
    >
      Retry <span className="visually-hidden">delivery of {attempt.eventId}</span>
    </button>
  );
}

/** True until `until` (ms since the epoch) passes; re-renders when it does. */
function useWatching(until: number): boolean {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const left = until - Date.now();
    if (left <= 0) return;
    setNow(Date.now());
    const timer = window.setTimeout(() => setNow(Date.now()), left);
    return () => window.clearTimeout(timer);
  }, [until]);
  return now < until;
}
