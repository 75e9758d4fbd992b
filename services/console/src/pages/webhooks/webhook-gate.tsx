import type { ReactNode } from 'react';
import type { WebhookContext } from './use-webhook-context.js';

/** The pages for owners and admins; the reason for members; nothing decided while the role loads. */
export function WebhookGate({ context, children }: { context: WebhookContext; children: ReactNode }) {
  if (context.access.allowed) return <>{children}</>;
  if (context.roleLoading) return <p aria-live="polite">Loading your role…</p>;
  return (
    <div className="notice" role="note">
      <p>
        <strong>Owners and admins only.</strong> Only owners and admins of this workspace can see and manage its webhook endpoints.
      </p>
      {context.access.reason ? <p className="wh-hint">{context.access.reason}</p> : null}
      <p>Webhooks of your personal space are yours to manage: pick it in the space switcher above.</p>
    </div>
  );
}
