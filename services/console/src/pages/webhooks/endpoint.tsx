import type { WebhookEndpoint, WebhookEndpointWithSecret } from '@raffle/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice.js';
import { ConfirmButton } from '../../ui/ConfirmButton.js';
import { DateTime } from '../../ui/DateTime.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { SecretOnce } from '../../ui/SecretOnce.js';
import { DeliveryLog } from './delivery-log.js';
import { EndpointForm } from './endpoint-form.js';
import { EndpointStatus } from './endpoint-status.js';
import { EventTypeTags } from './event-type-tags.js';
import { RecoverForm } from './recover-form.js';
import { forgetEndpoint, useEndpointAction } from './use-endpoint-action.js';
import { useWebhookContext, type WebhookContext } from './use-webhook-context.js';
import { webhookKeys, webhooksPath } from './webhook-api.js';
import { WebhookGate } from './webhook-gate.js';
import './webhooks.css';

/** How long the delivery log polls after a test event, a retry or a recovery, for the first attempt to show. */
const WATCH_AFTER_SEND_MS = 30_000;
const DISABLED_REASON = 'The endpoint is disabled: enable it first.';

/** One endpoint: its settings, the actions on it, and its delivery log. */
export default function WebhookEndpointPage() {
  const context = useWebhookContext();
  const { endpointId = '' } = useParams();
  return (
    <section className="wh-page" aria-labelledby="endpoint-title">
      <p>
        <Link to={webhooksPath(context.scope)}>All webhook endpoints</Link>
      </p>
      <WebhookGate context={context}>
        <EndpointLoader key={endpointId} context={context} endpointId={endpointId} />
      </WebhookGate>
    </section>
  );
}

function EndpointLoader({ context, endpointId }: { context: WebhookContext; endpointId: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [deleted, setDeleted] = useState(false);
  const endpoint = useQuery({ queryKey: webhookKeys.endpoint(context.scope, endpointId), queryFn: () => context.api.get(endpointId), enabled: !deleted });
  useEffect(() => {
    if (!deleted) return;
    // The view and its polling delivery log are unmounted by now: nothing asks for the endpoint again.
    forgetEndpoint(queryClient, context.scope, endpointId);
    void navigate(webhooksPath(context.scope));
  }, [deleted, queryClient, navigate, context.scope, endpointId]);

  if (deleted) return null;
  if (endpoint.error) {
    return (
      <>
        <h1 id="endpoint-title">Webhook endpoint</h1>
        <ApiErrorNotice error={endpoint.error} />
      </>
    );
  }
  if (!endpoint.data) return <p aria-live="polite">Loading the endpoint…</p>;
  return <EndpointView context={context} endpoint={endpoint.data} onDeleted={() => setDeleted(true)} />;
}

function EndpointView({ context, endpoint, onDeleted }: { context: WebhookContext; endpoint: WebhookEndpoint; onDeleted(): void }) {
  const { scope, api } = context;
  const { run, failure } = useEndpointAction(scope, endpoint.id);
  const [editing, setEditing] = useState(false);
  const [rotated, setRotated] = useState<WebhookEndpointWithSecret | null>(null);
  const [lastTestEventId, setLastTestEventId] = useState<string | null>(null);
  const [watchUntil, setWatchUntil] = useState(0);
  const watchForAttempts = () => setWatchUntil(Date.now() + WATCH_AFTER_SEND_MS);
  const disabledReason = endpoint.enabled ? undefined : DISABLED_REASON;

  const sendTest = async () => {
    const sent = await run(() => api.sendTest(endpoint.id), (r) => `Test event ${r.eventId} sent.`);
    if (sent) {
      setLastTestEventId(sent.eventId);
      watchForAttempts();
    }
  };

  return (
    <>
      <h1 id="endpoint-title" className="wh-break">
        {endpoint.url}
      </h1>
      {endpoint.description ? <p className="wh-break">{endpoint.description}</p> : null}
      <EndpointStatus endpoint={endpoint} />
      <dl className="wh-facts">
        <dt>Event types</dt>
        <dd>
          <EventTypeTags eventTypes={endpoint.eventTypes} label="Subscribed event types" />
        </dd>
        <dt>Created</dt>
        <dd>
          <DateTime value={endpoint.createdAt} />
        </dd>
        <dt>Secret rotated</dt>
        <dd>
          <DateTime value={endpoint.secretRotatedAt} fallback="never" />
        </dd>
      </dl>

      <section className="card" aria-labelledby="endpoint-actions-title">
        <h2 id="endpoint-actions-title">Actions</h2>
        <ApiErrorNotice error={failure} />
        <div className="wh-actions">
          {disabledReason ? (
            <DisabledReason label="Send test event" reason={disabledReason} />
          ) : (
            <button type="button" className="button button-primary" onClick={() => void sendTest()}>
              Send test event
            </button>
          )}
          <button type="button" className="button" onClick={() => setEditing(true)} disabled={editing}>
            Edit
          </button>
          {endpoint.enabled ? (
            <ConfirmButton
              label="Disable"
              confirmText="Disable this endpoint? It receives nothing until it is enabled again, and events meanwhile are not kept for it."
              onConfirm={() => run(() => api.update(endpoint.id, { enabled: false }), () => 'Endpoint disabled.', { rethrow: true })}
            />
          ) : (
            <button type="button" className="button" onClick={() => void run(() => api.update(endpoint.id, { enabled: true }), () => 'Endpoint enabled.')}>
              Enable
            </button>
          )}
          <ConfirmButton
            label="Rotate secret"
            confirmText="Rotate the signing secret? The new one is shown once; the old one keeps signing alongside it for 24 hours."
            onConfirm={async () => {
              const result = await run(() => api.rotateSecret(endpoint.id), () => 'Secret rotated. Copy the new one now.', { rethrow: true });
              if (result) setRotated(result);
            }}
          />
          <ConfirmButton
            label="Delete endpoint"
            danger
            confirmText="Delete this endpoint and its delivery log? This cannot be undone."
            onConfirm={async () => {
              await run(() => api.delete(endpoint.id), () => 'Endpoint deleted.', { rethrow: true, gone: true });
              onDeleted();
            }}
          />
        </div>
        {lastTestEventId ? (
          <p className="wh-hint">
            Test event <code>{lastTestEventId}</code> sent; its delivery shows in the log below.
          </p>
        ) : null}
      </section>

      {rotated ? (
        <section className="card" aria-labelledby="rotated-secret-title">
          <h2 id="rotated-secret-title">Secret rotated</h2>
          <SecretOnce label="New signing secret" secret={rotated.secret} />
          <button type="button" className="button" onClick={() => setRotated(null)}>
            Done
          </button>
        </section>
      ) : null}

      {editing ? (
        <section className="card" aria-labelledby="edit-endpoint-title">
          <h2 id="edit-endpoint-title">Edit endpoint</h2>
          <EndpointForm
            audience={context.audience}
            initial={{ url: endpoint.url, description: endpoint.description ?? '', eventTypes: endpoint.eventTypes }}
            submitLabel="Save changes"
            onCancel={() => setEditing(false)}
            onSubmit={async (values) => {
              await run(
                () => api.update(endpoint.id, { url: values.url, description: values.description || null, eventTypes: values.eventTypes }),
                () => 'Endpoint saved.',
                { rethrow: true },
              );
              setEditing(false);
            }}
          />
        </section>
      ) : null}

      <DeliveryLog
        scope={scope}
        api={api}
        endpointId={endpoint.id}
        watchUntil={watchUntil}
        retry={disabledReason ? { allowed: false, reason: disabledReason } : { allowed: true }}
        onRetry={async (attempt) => {
          const queued = await run(() => api.retry(endpoint.id, attempt.deliveryId), () => `Delivery of ${attempt.eventId} queued again.`);
          if (queued) watchForAttempts();
        }}
      />

      <RecoverForm
        disabledReason={disabledReason}
        onRecover={async (since) => {
          const recovered = await run(
            () => api.recover(endpoint.id, since),
            (r) => (r.requeued === 0 ? 'No failed deliveries since then: nothing to send again.' : `${r.requeued} failed ${r.requeued === 1 ? 'delivery' : 'deliveries'} queued again.`),
          );
          if (recovered && recovered.requeued > 0) watchForAttempts();
        }}
      />
    </>
  );
}
