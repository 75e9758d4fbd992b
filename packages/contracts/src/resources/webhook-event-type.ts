import { Type } from '@sinclair/typebox';
import { PageOf, type Pagination } from '../pagination.js';
import { StringEnum } from '../primitives.js';
import { WEBHOOK_AUDIENCES, type WebhookAudience } from '../webhook-event-catalog.js';

/** One event type as GET /api/developer/event-types lists it. */
export const WebhookEventTypeSchema = Type.Object(
  {
    type: Type.String({ description: 'The event type, as endpoints subscribe to it and as the payload\'s `type` carries it.' }),
    description: Type.String({ description: 'What happened and what `data` holds.' }),
    audiences: Type.Array(StringEnum(WEBHOOK_AUDIENCES), {
      description: 'The endpoint kinds (personal, workspace) that can subscribe to it.',
    }),
    schema: Type.Object(
      {},
      {
        additionalProperties: true,
        description: 'JSON Schema (2020-12) of the whole POST body, self-contained: every reference is inlined.',
      },
    ),
  },
  { $id: 'WebhookEventType', additionalProperties: false },
);
export type WebhookEventTypeItem = { type: string; description: string; audiences: WebhookAudience[]; schema: Record<string, unknown> };

export const WebhookEventTypePageSchema = PageOf(Type.Ref(WebhookEventTypeSchema), 'WebhookEventTypePage');
export type WebhookEventTypePage = { data: WebhookEventTypeItem[]; pagination: Pagination };
