import { useState } from 'react';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice.js';
import { EmptyState } from '../../ui/EmptyState.js';
import { Pager } from '../../ui/Pager.js';
import { usePagedList } from '../../ui/usePagedList.js';
import { CreateEndpoint } from './create-endpoint.js';
import { EndpointList } from './endpoint-list.js';
import { useWebhookContext, type WebhookContext } from './use-webhook-context.js';
import { webhookKeys } from './webhook-api.js';
import { WebhookGate } from './webhook-gate.js';
import './webhooks.css';

/** Webhook endpoints of the current scope: the list, and the form that registers a new one. */
export default function WebhooksPage() {
  const context = useWebhookContext();
  return (
    <section className="wh-page" aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <p>Signed HTTP POSTs to your server when something happens in {context.ownerLabel}.</p>
      <WebhookGate context={context}>
        {/* Keyed by owner: switching space starts over, never showing the other owner's form. */}
        <Endpoints key={webhookKeys.all(context.scope).join('/')} context={context} />
      </WebhookGate>
    </section>
  );
}

function Endpoints({ context }: { context: WebhookContext }) {
  const [creating, setCreating] = useState(false);
  const endpoints = usePagedList(webhookKeys.endpoints(context.scope), (cursor) => context.api.list().page(cursor ? { cursor } : {}));

  return (
    <>
      {creating ? (
        <CreateEndpoint context={context} onClose={() => setCreating(false)} />
      ) : (
        <div className="wh-actions">
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            New endpoint
          </button>
        </div>
      )}
      <section aria-labelledby="endpoints-title">
        <h2 id="endpoints-title">Endpoints</h2>
        {endpoints.error ? (
          <ApiErrorNotice error={endpoints.error} />
        ) : endpoints.isLoading ? (
          <p aria-live="polite">Loading endpoints…</p>
        ) : endpoints.items.length === 0 && !endpoints.hasPrev ? (
          <EmptyState title="No webhook endpoints yet">
            Choose <strong>New endpoint</strong>, give it your server's URL and the events it should hear about, then send it a test event.
          </EmptyState>
        ) : (
          <>
            <EndpointList scope={context.scope} endpoints={endpoints.items} />
            <Pager list={endpoints} label="Endpoint pages" />
          </>
        )}
      </section>
    </>
  );
}
