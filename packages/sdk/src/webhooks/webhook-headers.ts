import { WebhookVerificationError } from './webhook-verification-error.js';

/** A fetch `Headers` (or anything with its `get`), or a Node-style header record. */
export type WebhookHeaders = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

export type SignedWebhookHeaders = { id: string; timestamp: string; signature: string };

function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  // Frameworks differ in header-name case; HTTP says it does not matter.
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  // A repeated header arrives as a list: signatures can be pooled, an id or timestamp cannot.
  if (Array.isArray(value)) return name === 'webhook-signature' ? value.join(' ') : new Set(value).size === 1 ? value[0] : undefined;
  return value as string | undefined;
}

/** The three Standard Webhooks headers; the `svix-*` spellings are not read (this API never sends them). */
export function readSignedHeaders(headers: WebhookHeaders): SignedWebhookHeaders {
  const id = headerValue(headers, 'webhook-id')?.trim();
  const timestamp = headerValue(headers, 'webhook-timestamp')?.trim();
  const signature = headerValue(headers, 'webhook-signature')?.trim();
  const missing = [!id && 'webhook-id', !timestamp && 'webhook-timestamp', !signature && 'webhook-signature'].filter(Boolean);
  if (missing.length > 0) throw new WebhookVerificationError('missing_header', `missing ${missing.join(', ')}`);
  return { id: id!, timestamp: timestamp!, signature: signature! };
}
