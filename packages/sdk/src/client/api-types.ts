import type { components, operations } from '../generated/data-plane.js';

/**
 * The data plane's request and response types, read from the generated OpenAPI types
 * (src/generated/data-plane.ts, `pnpm openapi:export`), so a route's schema change reaches the
 * SDK's signatures without a second hand-written copy.
 */
type Schemas = components['schemas'];

/** A list operation's query without the cursor: the SDK owns the cursor. */
type ListQuery<Id extends keyof operations> = Omit<NonNullable<operations[Id]['parameters']['query']>, 'cursor'>;

export type Profile = Schemas['Profile'];
export type PublicRaffle = Schemas['PublicRaffle'];
export type PublicRaffleListItem = Schemas['PublicRaffleItem'];
export type DrawProof = Schemas['DrawProof'];
export type Entry = Schemas['SanitizedEntry'];
export type Win = Schemas['Win'];
export type WorkspaceRaffle = Schemas['WorkspaceRaffle'];
export type WorkspaceRaffleListItem = Schemas['WorkspaceRaffleItem'];
export type WorkspaceEntry = Schemas['WorkspaceEntry'];
export type Winner = Schemas['Winner'];
export type Project = Schemas['Project'];
export type Allowlist = Schemas['Allowlist'];
export type AllowlistVersion = Schemas['AllowlistVersion'];
export type AllowlistLeaf = Schemas['AllowlistLeaf'];
export type AllowlistLeafPage = Schemas['AllowlistLeafPage'];
export type AllowlistProof = Schemas['AllowlistProof'];
export type AllowlistWallet = Schemas['AllowlistWallet'];
export type Pagination = Schemas['Pagination'];
export type ErrorBody = Schemas['ErrorBody'];

export type PublicRaffleListParams = ListQuery<'listPublicRaffles'>;
export type EntryListParams = ListQuery<'listMyEntries'>;
export type WinListParams = ListQuery<'listMyWins'>;
export type WorkspaceRaffleListParams = ListQuery<'listWorkspaceRaffles'>;
export type WorkspaceEntryListParams = ListQuery<'listRaffleEntries'>;
export type ProjectListParams = ListQuery<'listWorkspaceProjects'>;
/** The version (the latest when absent), one wallet's leaf (`address`), and the page size. */
export type AllowlistLeafListParams = ListQuery<'listWorkspaceAllowlistLeaves'>;
