import type { WebhookEndpointWithSecret } from '@raffle/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { SecretOnce } from '../../ui/SecretOnce.js';
import { useToast } from '../../ui/toast.js';
import { EndpointForm } from './endpoint-form.js';
import type { WebhookContext } from './use-webhook-context.js';
import { webhookKeys, webhooksPath } from './webhook-api.js';

/**
 * Registers an endpoint, then shows its signing secret: the API returns it in this one answer
 * and never again, so it is shown here, once.
 */
export function CreateEndpoint({ context, onClose }: { context: WebhookContext; onClose(): void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<WebhookEndpointWithSecret | null>(null);

  if (created) {
    return (
      <section className="card" aria-labelledby="created-endpoint-title">
        <h2 id="created-endpoint-title">Endpoint created</h2>
        <p className="wh-break">{created.url}</p>
        <SecretOnce label="Signing secret" secret={created.secret} />
        <p className="wh-hint">Verify each delivery's signature with it (verifyWebhook in @raffle/sdk, or any Standard Webhooks library).</p>
        <div className="wh-actions">
          <Link to={webhooksPath(context.scope, created.id)}>Open the endpoint</Link>
          <button type="button" className="button" onClick={onClose}>
            Done
          </button>
        </div>
      </section>
    );
  }

  return (
    <section className="card" aria-labelledby="create-endpoint-title">
      <h2 id="create-endpoint-title">New webhook endpoint</h2>
      <EndpointForm
        audience={context.audience}
        submitLabel="Create endpoint"
        onCancel={onClose}
        onSubmit={async (values) => {
          try {
            const endpoint = await context.api.create({
              url: values.url,
              eventTypes: values.eventTypes,
              ...(values.description ? { description: values.description } : {}),
            });
            setCreated(endpoint);
            toast.success('Endpoint created. Copy its signing secret now.');
          } catch (error) {
            toast.error(error);
            throw error;
          }
          await queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints(context.scope) });
        }}
      />
    </section>
  );
}
