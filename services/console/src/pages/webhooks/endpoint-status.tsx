import type { WebhookEndpoint } from '@raffle/sdk';
import { DateTime } from '../../ui/DateTime.js';

/** Enabled or disabled (with why and since when), and how long it has been failing: in words, not colour alone. */
export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <p className="wh-badges">
      {endpoint.enabled ? (
        <span className="wh-badge wh-badge-ok">Enabled</span>
      ) : (
        <>
          <span className="wh-badge wh-badge-muted">Disabled</span>
          <span className="wh-hint">
            {endpoint.disabledReason ?? 'Disabled'}
            {endpoint.disabledAt ? (
              <>
                {' '}
                (since <DateTime value={endpoint.disabledAt} />)
              </>
            ) : null}
          </span>
        </>
      )}
      {endpoint.failingSince ? (
        <span className="wh-badge wh-badge-warn">
          Failing since <DateTime value={endpoint.failingSince} />
        </span>
      ) : null}
    </p>
  );
}
