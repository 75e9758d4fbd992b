import { Type } from '@sinclair/typebox';

/**
 * Workspace and project slugs: lowercase letters, digits and inner hyphens, 3 to 48 characters.
 * They appear in URLs, so a leading or trailing hyphen is refused as well.
 */
export const SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{1,46}[a-z0-9]$';

export const Slug = (description: string) => Type.String({ pattern: SLUG_PATTERN, description });

/** A display name: at least one non-blank character. */
export const DisplayName = (description: string) => Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description });

/** Logos and websites are shown as links, so only absolute http(s) URLs are stored. */
export const HttpUrl = (description: string) =>
  Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048, description });

export const DASHBOARD_PAGE_SIZE = { default: 50, max: 100 } as const;

/**
 * The query of a dashboard list. Management validates query strings without type coercion,
 * so `limit` is matched as text: a plain integer from 1 to 100, nothing else (`1e2`, `07`, ` 5`).
 */
export const DashboardPageQuerySchema = Type.Object(
  {
    limit: Type.Optional(
      Type.String({
        pattern: '^(?:[1-9][0-9]?|100)$',
        examples: ['50'],
        description: `Page size, 1 to ${DASHBOARD_PAGE_SIZE.max}; ${DASHBOARD_PAGE_SIZE.default} when absent.`,
      }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'The opaque nextCursor of the previous page.' })),
  },
  { additionalProperties: false },
);
