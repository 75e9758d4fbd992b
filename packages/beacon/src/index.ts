export { QUICKNET, QUICKNET_BEACON_ID, QUICKNET_GROUP_HASH, UNCHAINED_G1_RFC9380, chainHashOf, type BeaconChain, type ChainHashInputs } from './chain.js';
export { generateSecretKey, isRoundSignatureValid, randomnessOf, roundAt, timeOfRound } from '@raffle/sdk';
export { BeaconRoundPending, BeaconUnavailable, type RelayFailure } from './errors.js';
export { DRAND_PUBLIC_RELAYS } from './relays.js';
export { checkRelays, type RelayCheck } from './relay-check.js';
export { createBeaconClient, type BeaconClient, type BeaconClientOptions, type VerifiedRound } from './beacon-client.js';
export { LOCAL_BEACON_ID, startLocalBeacon, type LocalBeacon, type LocalBeaconOptions } from './local-beacon/local-beacon.js';
export { localBeaconChain, localRoundSigner, type LocalRoundSigner } from './local-beacon/round-signer.js';
export { loadOrCreateIdentity as localBeaconIdentity, type BeaconIdentity } from './local-beacon/beacon-identity.js';
