import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  inlineSchemaRefs,
  SHARED_SCHEMAS,
  WEBHOOK_EVENT_CATALOG,
  WEBHOOK_EVENT_SCHEMAS,
  WEBHOOK_EVENT_TYPES,
  WebhookEventTypePageSchema,
  type WebhookEventTypePage,
} from '@raffle/contracts';
import { Type } from '@sinclair/typebox';
import { managementResponses } from '../responses.js';

/**
 * The whole catalogue in one page. It is fixed (about twenty types, known at build time), so a
 * cursor would only add round trips; the `{ data, pagination }` shape is kept so clients walk it
 * like every other list, and it always says there is nothing more.
 */
const EVENT_TYPES: WebhookEventTypePage = {
  data: WEBHOOK_EVENT_TYPES.map((type) => {
    const entry = WEBHOOK_EVENT_CATALOG[type];
    return { type, description: entry.description, audiences: [...entry.audiences], schema: inlineSchemaRefs(entry.payload, [...SHARED_SCHEMAS, ...WEBHOOK_EVENT_SCHEMAS]) };
  }),
  pagination: { nextCursor: null, hasMore: false },
};

const example = EVENT_TYPES.data.find((item) => item.type === 'webhook.test')!;

const eventTypeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/event-types',
    {
      schema: {
        operationId: 'listWebhookEventTypes',
        tags: ['Capabilities'],
        summary: 'Webhook event types, with what each means, who can receive it and its payload schema',
        description:
          'Every event type in one page (the catalogue is fixed; `pagination.hasMore` is always false). `schema` is the JSON Schema of the POST body an endpoint receives; the `webhooks` section of this document has the same schemas.',
        response: managementResponses(
          200,
          Type.Ref(WebhookEventTypePageSchema, { examples: [{ data: [example], pagination: { nextCursor: null, hasMore: false } }] }),
        ),
      },
    },
    async () => EVENT_TYPES,
  );
};

export default eventTypeRoutes;
