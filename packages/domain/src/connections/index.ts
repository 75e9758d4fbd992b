export * from './connection-tokens.js';
export * from './connections.js';
export * from './link-flow.js';
export * from './linked-account.js';
export { oauthClientFor, ProviderUnavailable, type ConnectionOAuth, type ProviderRevocation } from './provider-access.js';
export * from './token-sealing.js';
