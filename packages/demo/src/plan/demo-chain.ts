import { getAddress, getContractAddress, type Address } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';

/**
 * The demo's local EVM chain, as `start` runs it: anvil (chain id 31337) with @raffle/chain's demo
 * contracts deployed by test account 0 right after it starts. Everything here is fixed, so the
 * demo data (loaded once, kept across restarts) and a fresh chain on every `start` agree: the
 * accounts come from anvil's public test mnemonic, and the contracts' addresses follow from the
 * deployer and its nonces (the ERC-20 at 0, the Nebula Pass at 1, the ERC-1155 at 2). `start`
 * checks the deployed addresses against these and says so when they differ.
 */
export const DEMO_CHAIN_NAME = 'anvil';

/** anvil's default mnemonic: public, funding accounts on the local chain only. */
const ANVIL_TEST_MNEMONIC = 'test test test test test test test test test test test junk';

const testAddress = (index: number): Address => mnemonicToAccount(ANVIL_TEST_MNEMONIC, { addressIndex: index }).address;

const DEPLOYER = testAddress(0);

/** Where a fresh anvil gets each demo contract (deployDemoContracts sends them in this nonce order). */
export const DEMO_CONTRACTS = {
  erc20: getAddress(getContractAddress({ from: DEPLOYER, nonce: 0n })),
  erc721: getAddress(getContractAddress({ from: DEPLOYER, nonce: 1n })),
  erc1155: getAddress(getContractAddress({ from: DEPLOYER, nonce: 2n })),
} as const;

/** The Nebula Pass collection's name, as its contract's name() says it (deployDemoContracts' default). */
export const NEBULA_PASS_NAME = 'Nebula Pass';

/** The test account (1–9) each demo persona's anvil wallet is. */
export const DEMO_CHAIN_ACCOUNTS = {
  alice: testAddress(1),
  bob: testAddress(2),
  carol: testAddress(3),
} as const;

/**
 * Who holds a Nebula Pass (ERC-721 token ids from 1): alice and carol do, bob does not — the
 * README enters the gated raffle as alice (201) and as bob (422, "holds 0 Nebula Pass, needs 1").
 */
export const DEMO_NEBULA_PASS_HOLDERS: readonly { to: Address; tokenId: bigint }[] = [
  { to: DEMO_CHAIN_ACCOUNTS.alice, tokenId: 1n },
  { to: DEMO_CHAIN_ACCOUNTS.carol, tokenId: 2n },
];
