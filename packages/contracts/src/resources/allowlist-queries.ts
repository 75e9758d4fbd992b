import { Type, type Static } from '@sinclair/typebox';
import { PAGE_SIZES, PageQuerySchema } from '../pagination.js';
import type { AllowlistLeafPageSchema } from './allowlist.js';
import { DashboardItemsPageFields } from './dashboard-raffle-lists.js';

// The query of an allowlist's leaf list (issue 35): a page of one version, or one wallet's leaf.
// The data plane coerces query strings (so `version` is an integer there); management does not
// (so there it is text matched as a plain integer), as for every other list of each service.

const ADDRESS = '^0x[0-9a-fA-F]{40}$';
/** Versions are small integers; the cap keeps a huge one a 400 rather than a database error. */
const MAX_VERSION = 2_147_483_647;

const VERSION_DESCRIPTION = 'The version to list (`versions[].version` of the allowlist); the latest when absent. 404 `NOT_FOUND` for a version the allowlist does not have.';
const address = Type.Optional(
  Type.String({
    pattern: ADDRESS,
    description: "Only this wallet's leaf (any case): a page of one leaf, or an empty page when the wallet is not on this version.",
    examples: ['0x8ba1f109551bD432803012645Ac136ddd64DBA72'],
  }),
);

/** `limit`, `cursor`, `version`, `address` on the data plane (keyed and public routes). */
export const AllowlistLeafQuerySchema = Type.Object({
  ...PageQuerySchema(PAGE_SIZES.allowlistLeaves).properties,
  version: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_VERSION, description: VERSION_DESCRIPTION })),
  address,
});

/** The same on management, whose query strings are validated as text. */
export const DashboardAllowlistLeafQuerySchema = Type.Object(
  {
    ...DashboardItemsPageFields,
    version: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$', examples: ['1'], description: VERSION_DESCRIPTION })),
    address,
  },
  { additionalProperties: false },
);

export type AllowlistLeafPage = Static<typeof AllowlistLeafPageSchema>;
