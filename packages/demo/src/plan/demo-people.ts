import type { WalletRow } from '@raffle/db';
import { addDays, daysBeforeDemoNow } from './demo-clock.js';
import { DEMO_CHAIN_ACCOUNTS, DEMO_CHAIN_NAME } from './demo-chain.js';
import { demoBase58Address, demoEvmAddress, demoHex, demoId } from './demo-derive.js';

export type DemoPerson = {
  id: string;
  handle: string;
  displayName: string;
  avatarUrl: string | null;
  email: string;
  emailVerifiedAt: Date | null;
  createdAt: Date;
  wallets: WalletRow[];
  /**
   * Community roles. The loader grants each as a community_roles row in the workspace of every
   * raffle that requires it, which is where the `holds_role` requirement looks.
   */
  roles: string[];
  /** The keyed hash of the IP the person enters from; shared by a few people to trigger ipReuse. */
  ipHash: string;
};

export const ENTRANT_COUNT = 420;

const ADJECTIVES = [
  'amber', 'brisk', 'calm', 'daring', 'eager', 'fuzzy', 'gentle', 'hidden', 'icy', 'jolly', 'keen', 'lucky',
  'mellow', 'nimble', 'odd', 'plucky', 'quiet', 'rapid', 'shy', 'tidy', 'upbeat', 'vivid', 'witty', 'zesty',
];
const ANIMALS = [
  'otter', 'falcon', 'lynx', 'heron', 'badger', 'gecko', 'marten', 'newt', 'orca', 'puffin',
  'quail', 'raven', 'stoat', 'tapir', 'urchin', 'vole', 'walrus', 'yak', 'zebu', 'koala',
];

const capitalise = (word: string) => word[0]!.toUpperCase() + word.slice(1);

function person(handle: string, displayName: string, createdAt: Date, facts: Partial<DemoPerson>): DemoPerson {
  return {
    id: demoId('user', handle, createdAt),
    handle,
    displayName,
    avatarUrl: null,
    email: `${handle.replace(/_/g, '.')}@example.com`,
    emailVerifiedAt: addDays(createdAt, 1),
    createdAt,
    wallets: [{ chain: 'ethereum', address: demoEvmAddress(handle), verified: true }],
    roles: [],
    ipHash: demoHex(`ip:${handle}`, 32),
    ...facts,
  };
}

/**
 * A persona's EVM wallet, stored verified as seeded: a public anvil test account, the same address
 * on ethereum as on the demo's local chain (one key is one address on every EVM chain). So the
 * README can sign as the persona: alice mints on the local chain with the allowlist proof of her
 * win of the finalized ethereum draw, and bob, who lost it, is refused.
 */
const evmWallet = (chain: string, address: string): WalletRow => ({ chain, address, verified: true });
const anvilWallet = (address: string): WalletRow => evmWallet(DEMO_CHAIN_NAME, address);

/** The three named personas the docs and curl examples talk about. */
export function namedPeople() {
  const alice = person('alice', 'Alice Moreau', daysBeforeDemoNow(400), {
    avatarUrl: 'https://avatars.example.com/alice.png',
    wallets: [
      evmWallet('ethereum', DEMO_CHAIN_ACCOUNTS.alice),
      { chain: 'solana', address: demoBase58Address('alice:solana', 44), verified: true },
      anvilWallet(DEMO_CHAIN_ACCOUNTS.alice),
    ],
  });
  const bob = person('bob', 'Bob Okafor', daysBeforeDemoNow(380), {
    roles: ['og'],
    wallets: [evmWallet('ethereum', DEMO_CHAIN_ACCOUNTS.bob), anvilWallet(DEMO_CHAIN_ACCOUNTS.bob)],
  });
  // Carol is a Nebula OG too, so she can enter the hoodie drop that requires the role.
  const carol = person('carol', 'Carol Lindqvist', daysBeforeDemoNow(360), {
    roles: ['og'],
    avatarUrl: 'https://avatars.example.com/carol.png',
    wallets: [
      evmWallet('ethereum', DEMO_CHAIN_ACCOUNTS.carol),
      { chain: 'solana', address: demoBase58Address('carol:solana', 44), verified: true },
      anvilWallet(DEMO_CHAIN_ACCOUNTS.carol),
    ],
  });
  return { alice, bob, carol };
}

/**
 * The generated crowd. Facts vary by index in fixed patterns, so refusals for unmet
 * requirements, duplicate wallets and shared IPs appear in every raffle they try, at stable places.
 */
export function entrants(): DemoPerson[] {
  const crowd: DemoPerson[] = [];
  for (let i = 1; i <= ENTRANT_COUNT; i++) {
    const adjective = ADJECTIVES[i % ADJECTIVES.length]!;
    const animal = ANIMALS[Math.floor(i / ADJECTIVES.length) % ANIMALS.length]!;
    const handle = `${adjective}_${animal}_${i}`;
    // Most accounts are 100 to 599 days old; every 19th is young enough to fail `account_age_days`
    // in the big raffle (and to have no account yet when the oldest raffles ran).
    const createdAt = i % 19 === 0 ? daysBeforeDemoNow(65 + (i % 7)) : daysBeforeDemoNow(100 + ((i * 37) % 500));
    const wallets: WalletRow[] = [];
    if (i % 23 !== 0) {
      // Every 53rd entrant reuses the previous entrant's wallet: the duplicate check's case.
      const sharedWith = i % 53 === 0 && (i - 1) % 23 !== 0 ? crowd[i - 2] : undefined;
      const address = sharedWith?.wallets[0]?.address ?? demoEvmAddress(handle);
      wallets.push({ chain: 'ethereum', address, verified: i % 31 !== 0 });
    }
    if (i % 2 === 0) wallets.push({ chain: 'solana', address: demoBase58Address(`${handle}:solana`, 44), verified: true });
    if (i % 9 === 0) wallets.push({ chain: 'bitcoin', address: `bc1q${demoBase58Address(`${handle}:bitcoin`, 38).toLowerCase()}`, verified: true });
    // Three entrants in a row share an IP every 71: the ipReuse case.
    const ipGroup = i % 71 < 3 ? `ip-group:${Math.floor(i / 71)}` : `ip:${handle}`;
    crowd.push(
      person(handle, `${capitalise(adjective)} ${capitalise(animal)}`, createdAt, {
        emailVerifiedAt: i % 17 === 0 ? null : addDays(createdAt, 1),
        wallets,
        roles: i % 4 === 1 ? [] : ['og'],
        ipHash: demoHex(ipGroup, 32),
      }),
    );
  }
  return crowd;
}
