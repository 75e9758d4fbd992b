/**
 * Rounds published by drand's quicknet, copied from public sources. The signature is the
 * evidence: each one verifies against quicknet's public key (packages/sdk/test/beacon-round.test.ts, packages/beacon/test/verify-round.test.ts), so a
 * copying mistake fails the tests rather than passing as data. Where the source gave no
 * randomness it is sha256(signature), which is how drand defines it.
 */
export type PublishedRound = { round: number; signature: string; randomness: string; source: string };

export const QUICKNET_ROUNDS = {
  /** The v2 API example in drand's HTTP API guide (signature only). */
  round42: {
    round: 42,
    signature: '95a9f9f5b231b7714de1553105d8ffdf3dcda24cfdb1e689319bccf79a9c8ce430a91b811fbfaf763900bc998b5d686a',
    randomness: '8ada64bae5c6c0f5540a6a13af56e663240edfbd2c76ac6a8f27671eb7259ce3',
    source: 'github.com/drand/drand-docs docs/developer/06-HTTP-API.md @ 5431a762aa6118d7a90d365ea3dec6f265f34db0',
  },
  /**
   * The `dee rand -u quicknet --long 1000` example in dee's README (dee is the Rust drand CLI by
   * Thibault Meunier), with its randomness and its time, 2023-08-23 15:59:24 UTC.
   */
  round1000: {
    round: 1000,
    signature: 'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39',
    randomness: 'fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd',
    source: 'github.com/thibmeu/drand-rs README.md @ 170e5c0b6ec16ab67acdddb8f2e411dbc4718998',
  },
  /** The beacon of round 12040883 that tlock's deterministic tests decrypt with (signature only). */
  round12040883: {
    round: 12040883,
    signature: '929906c959032ab363c9f26570d215d66f5c06cb0c44fe508c12bb5839f04ec895bb6868e5b9ff13ab289bdb5266b394',
    randomness: '173df1f57805453a8d2015268205d68147de12cafc2f451f7bc6adadca3571b3',
    source: 'github.com/drand/tlock tlock_test.go (TestDeterministicTimeLock) @ 962ec50d004c1a336bdffb24dfc6a019192fc070',
  },
} satisfies Record<string, PublishedRound>;

export const ALL_QUICKNET_ROUNDS: readonly PublishedRound[] = Object.values(QUICKNET_ROUNDS);
