import type { WebhookDeliveryAttempt } from '@raffle/sdk';

const LABELS: Record<WebhookDeliveryAttempt['deliveryStatus'], { text: string; className: string }> = {
  succeeded: { text: 'Succeeded', className: 'wh-badge wh-badge-ok' },
  pending: { text: 'Pending', className: 'wh-badge wh-badge-warn' },
  failed: { text: 'Failed', className: 'wh-badge wh-badge-danger' },
};

/** The delivery's state in words (never colour alone). */
export function DeliveryStatus({ status }: { status: WebhookDeliveryAttempt['deliveryStatus'] }) {
  const label = LABELS[status];
  return <span className={label.className}>Delivery {label.text.toLowerCase()}</span>;
}
