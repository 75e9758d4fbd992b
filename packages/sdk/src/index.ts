/**
 * @raffle/sdk: typed clients for the Raffle data-plane and management APIs, webhook signature
 * verification, and the verifiable draw. Runs on Node ≥ 20 and in browsers (fetch and portable
 * hashing; no Node-only import on any client path).
 */

// The data plane (/api/v1) with an API key.
export { RaffleClient, DEFAULT_DATA_PLANE_URL, type RaffleClientOptions } from './client/raffle-client.js';
export type { EnterOptions } from './client/resources/raffles.js';
export type { AllowlistLeafList } from './client/resources/allowlist.js';
export type {
  Allowlist,
  AllowlistLeaf,
  AllowlistLeafListParams,
  AllowlistLeafPage,
  AllowlistProof,
  AllowlistVersion,
  AllowlistWallet,
  DrawProof,
  Entry,
  EntryListParams,
  ErrorBody,
  Pagination,
  Profile,
  Project,
  ProjectListParams,
  PublicRaffle,
  PublicRaffleListItem,
  PublicRaffleListParams,
  Win,
  WinListParams,
  Winner,
  WorkspaceEntry,
  WorkspaceEntryListParams,
  WorkspaceRaffle,
  WorkspaceRaffleListItem,
  WorkspaceRaffleListParams,
} from './client/api-types.js';

// Errors, paging and the HTTP seam shared by both clients.
export { RaffleApiError, RaffleConnectionError, RaffleError, RaffleTimeoutError, MAX_RETRY_AFTER_SECONDS } from './http/index.js';
export type { Page, PagedList, RateLimitState, RequestOptions, ResponseInfo, WithResponse } from './http/index.js';
export { clientIdentity } from './http/index.js';
export { SDK_VERSION } from './version.js';

// The verifiable draw.
export { BEACON_ROUND_OFFSET, beaconRoundForClose, chainValueProblems, QUICKNET, roundAt, timeOfRound, UNCHAINED_G1_RFC9380, type BeaconChain, type ChainValueProblem } from './draw/beacon-chain.js';
export { generateSecretKey, isRoundSignatureValid, publicKeyOf, randomnessOf, signRound } from './draw/beacon-signature.js';
export { beaconMixedSeed, DRAND_DRAW_ALGORITHM, type DrawBeaconRound } from './draw/beacon-draw.js';
export { drawKeyHasher, type DrawKeyHasher } from './draw-key-hasher.js';
export { DRAW_ALGORITHM, drawCommitment, drawKey, drawOrder, entriesDigest, entryLine, parseEntryLines, rankEntries, type DrawEntry } from './weighted-draw.js';
export { ENTRY_ID_FORMAT, USER_ID_FORMAT, WEIGHT_FORMAT, malformedDrawEntryField, type DrawEntryField } from './draw/entry-format.js';
export {
  DRAW_VERIFICATION_FAILURES,
  verifyDraw,
  type DrawBeaconSigner,
  type DrawProblem,
  type DrawVerification,
  type DrawVerificationFailure,
  type RerolledWinner,
  type TrustedBeaconChain,
  type VerifyDrawOptions,
} from './verify-draw.js';
export {
  checkEligibilityBlocksOnChain,
  ELIGIBILITY_NOTE,
  type ChainRpcCheckOptions,
  type DrawEligibility,
  type DrawEligibilityBlock,
  type EligibilityOnChainCheck,
} from './draw/eligibility-blocks.js';
export { describeBeaconChain, describeDrawChecks, describeWinnerChanges, drawVerdictLabel, utcTime, validDrawSummary, type DrawCheck } from './draw/draw-checks.js';
export {
  committedAlgorithm,
  fetchDrawCommitment,
  type DrawCommitment,
  type DrawCommitmentRecord,
  type FetchDrawCommitmentOptions,
} from './draw/commitment-record.js';
export { fetchPlatformBeaconChain, PLATFORM_BEACON_NAME, type FetchPlatformBeaconOptions, type PlatformBeaconChain } from './draw/platform-beacon.js';
export { fetchAndVerifyDraw, type FetchAndVerifyDrawOptions, type FetchedDrawVerification } from './draw/fetch-and-verify-draw.js';

// Allowlists: the offline check of an address's place in an allowlist's Merkle tree, the root
// rebuilt from public leaves, the checks of raffle-verify-allowlist, and the keyless public routes.
export * from './allowlist/index.js';

// The management API (/api/developer, /api/dashboard) with a session token.
export * from './management/index.js';
// Both APIs have a project resource: the data plane's keeps the plain name.
export type { Project as ManagementProject } from './management/index.js';

// Webhook signatures (Standard Webhooks) and the typed events.
export * from './webhooks/index.js';
