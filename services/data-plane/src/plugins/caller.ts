import type { ApiKeyKind, ApiScope } from '@raffle/contracts';

/** Who an authenticated data-plane request acts for. */
export type Caller = {
  keyId: string;
  kind: ApiKeyKind;
  userId: string;
  workspaceId: string | null;
  scopes: ReadonlySet<string>;
};

/** What a route demands of the caller's key; every /api/v1 route declares one. */
export type RouteAccess = { keyType: ApiKeyKind; scope: ApiScope };
