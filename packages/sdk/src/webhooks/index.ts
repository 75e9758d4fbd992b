export { verifyWebhook, type VerifyWebhookOptions } from './verify-webhook.js';
export { WebhookVerificationError, WEBHOOK_VERIFICATION_FAILURES, type WebhookVerificationFailure } from './webhook-verification-error.js';
export { WEBHOOK_EVENT_TYPES, isWebhookEventType, type WebhookEvent, type WebhookEventData, type WebhookEventOf, type WebhookEventType } from './webhook-event.js';
export type { WebhookHeaders } from './webhook-headers.js';
