export * from './allowed-origins.js';
export * from './linked-wallet.js';
export * from './wallet-link-message.js';
export * from './wallet-links.js';
