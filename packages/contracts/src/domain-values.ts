/**
 * The allowed values of the spec's open string fields, as product.md defines them.
 * Code across services imports these instead of repeating literals.
 */
export const RAFFLE_MECHANICS = ['raffle', 'fcfs', 'collection', 'application'] as const;
export const ALLOCATION_TYPES = ['allowlist_gtd', 'allowlist_fcfs', 'airdrop', 'physical', 'custom'] as const;
export const RAFFLE_VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export const RAFFLE_STATUSES = ['draft', 'scheduled', 'open', 'closed', 'drawn', 'finalized', 'cancelled'] as const;
/** Statuses a raffle can only reach through publish: the ones the public list may show. */
export const PUBLISHED_RAFFLE_STATUSES = ['scheduled', 'open', 'closed', 'drawn', 'finalized'] as const;
export const ENTRY_STATUSES = ['pending', 'valid', 'invalid', 'withdrawn', 'disqualified'] as const;
export const ENTRY_SOURCES = ['api', 'web', 'auto', 'import'] as const;
export const WIN_STATUSES = ['selected', 'finalized', 'disqualified', 'replaced'] as const;
export const WIN_SOURCES = ['draw', 'fcfs', 'manual', 'reroll'] as const;
export const DELIVERY_STATUSES = ['pending', 'processing', 'delivered', 'failed', 'not_applicable'] as const;
/**
 * The most an entry can weigh: the multipliers of one raffle's optional requirements, all met,
 * multiply to at most this. Weights are numeric(20,6) (under 10^14) in the database and in a draw
 * proof's lines; a million to one between two entrants is already past any raffle's intent.
 */
export const MAX_ENTRY_WEIGHT = 1_000_000;
/** A raffle slug as the create and update bodies take it; the console derives slugs from titles within it. */
export const RAFFLE_SLUG = { pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', minLength: 3, maxLength: 64 } as const;
export const WORKSPACE_ROLES = ['owner', 'admin', 'member'] as const;
export const REQUIREMENT_TYPES = [
  'wallet_connected',
  'account_age_days',
  'email_verified',
  'workspace_member',
  'holds_role',
  'token_balance',
  'native_balance',
  'discord_member',
  'discord_role',
  'x_follows',
  'x_account_age_days',
] as const;
/** The requirement types read from a chain (JSON-RPC) rather than from the platform's own tables. */
export const CHAIN_REQUIREMENT_TYPES = ['token_balance', 'native_balance'] as const;
/**
 * The requirement types read from a provider (Discord, X) with the entrant's own linked account's
 * token, like the chain ones outside the platform's tables (decision 0045).
 */
export const SOCIAL_REQUIREMENT_TYPES = ['discord_member', 'discord_role', 'x_follows', 'x_account_age_days'] as const;
/** How a `discord_role` requirement counts its roles: one of them, or every one. */
export const ROLE_MATCHES = ['any', 'all'] as const;
/** The token standards a `token_balance` requirement reads. */
export const TOKEN_STANDARDS = ['erc20', 'erc721', 'erc1155'] as const;
/** The providers a user links an account of (OAuth 2.0), for requirements read from them. */
export const SOCIAL_PROVIDERS = ['discord', 'x'] as const;
/** `revoked`: the provider refused the link's refresh (the user removed the app, or the grant ended); linking again restores it. */
export const CONNECTION_STATUSES = ['active', 'revoked'] as const;

export type RaffleMechanic = (typeof RAFFLE_MECHANICS)[number];
export type AllocationType = (typeof ALLOCATION_TYPES)[number];
export type RaffleVisibility = (typeof RAFFLE_VISIBILITIES)[number];
export type RaffleStatus = (typeof RAFFLE_STATUSES)[number];
export type EntryStatus = (typeof ENTRY_STATUSES)[number];
export type EntrySource = (typeof ENTRY_SOURCES)[number];
export type WinStatus = (typeof WIN_STATUSES)[number];
export type WinSource = (typeof WIN_SOURCES)[number];
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];
export type RequirementType = (typeof REQUIREMENT_TYPES)[number];
export type ChainRequirementType = (typeof CHAIN_REQUIREMENT_TYPES)[number];
export type SocialRequirementType = (typeof SOCIAL_REQUIREMENT_TYPES)[number];
export type TokenStandard = (typeof TOKEN_STANDARDS)[number];
export type SocialProviderName = (typeof SOCIAL_PROVIDERS)[number];
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
