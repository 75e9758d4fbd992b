import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

/** A wallet nobody else in the run uses: its balances are only what this test gives it. */
export const freshWallet = (): Address => privateKeyToAccount(generatePrivateKey()).address;
