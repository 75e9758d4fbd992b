export const walletKeys = { list: ['me', 'wallets'] as const };
