/**
 * Why a webhook was refused, for code to branch on (the message is for people):
 * - `missing_header`: `webhook-id`, `webhook-timestamp` or `webhook-signature` is absent or empty;
 * - `invalid_timestamp`: `webhook-timestamp` is not whole Unix seconds;
 * - `timestamp_too_old` / `timestamp_too_new`: it is further from now than the tolerance;
 * - `invalid_secret`: a secret given to verifyWebhook is not `whsec_<base64>` (or plain base64);
 * - `malformed_signature_header`: `webhook-signature` holds no `<version>,<base64>` entry at all;
 * - `no_matching_signature`: no `v1` signature matches any of the secrets;
 * - `invalid_payload`: the signed body is not a JSON event of a known type.
 */
export const WEBHOOK_VERIFICATION_FAILURES = [
  'missing_header',
  'invalid_timestamp',
  'timestamp_too_old',
  'timestamp_too_new',
  'invalid_secret',
  'malformed_signature_header',
  'no_matching_signature',
  'invalid_payload',
] as const;
export type WebhookVerificationFailure = (typeof WEBHOOK_VERIFICATION_FAILURES)[number];

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
  }
}
