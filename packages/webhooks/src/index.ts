export { generateWebhookSecret, isWebhookSecret } from './secrets.js';
export { signWebhook, type SignedHeaders } from './signing.js';
export {
  AUTO_DISABLE_AFTER_MS,
  DELIVERY_TIMEOUT_MS,
  RESPONSE_BODY_LIMIT_BYTES,
  RETRY_SCHEDULE_MS,
  delayBeforeNextAttempt,
} from './retry-schedule.js';
export { classifyAddress, parseAllowedHosts, type AddressClass, type AddressPolicy } from './address-policy.js';
export { checkEndpointUrl, type UrlVerdict } from './endpoint-url.js';
export { createDeliveryAgent } from './safe-dispatcher.js';
export { sendWebhook, type SendResult } from './send.js';
