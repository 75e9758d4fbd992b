import type { WebhookEndpoint } from '@raffle/sdk';
import { Link } from 'react-router';
import { EndpointStatus } from './endpoint-status.js';
import { EventTypeTags } from './event-type-tags.js';
import { webhooksPath, type WebhookScope } from './webhook-api.js';

type Props = { scope: WebhookScope; endpoints: WebhookEndpoint[] };

/** The endpoints as cards: a table of five columns does not fit 390 px. */
export function EndpointList({ scope, endpoints }: Props) {
  return (
    <ul className="wh-cards" aria-label="Webhook endpoints">
      {endpoints.map((endpoint) => (
        <li key={endpoint.id} className="card" data-endpoint-id={endpoint.id}>
          <h3 className="wh-card-title">
            <Link to={webhooksPath(scope, endpoint.id)}>{endpoint.url}</Link>
          </h3>
          {endpoint.description ? <p className="wh-break">{endpoint.description}</p> : null}
          <EndpointStatus endpoint={endpoint} />
          <EventTypeTags eventTypes={endpoint.eventTypes} label={`Event types of ${endpoint.url}`} />
        </li>
      ))}
    </ul>
  );
}
