import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable } from './primitives.js';

/**
 * The closed catalogue of error codes and the status each one answers with. Every data-plane
 * error names one of these in `code`, and every management error message starts with one
 * (`CODE: …`); the error handlers never invent a code.
 */
export const ERROR_CODES = {
  INVALID_LIMIT: 400,
  INVALID_CURSOR: 400,
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  MALFORMED_URL: 400,
  MALFORMED_REQUEST: 400,
  INVALID_IDEMPOTENCY_KEY: 400,
  API_KEY_MISSING: 401,
  API_KEY_INVALID: 401,
  API_KEY_EXPIRED: 401,
  API_KEY_REVOKED: 401,
  FORBIDDEN: 403,
  WRONG_KEY_TYPE: 403,
  WORKSPACE_MISMATCH: 403,
  INSUFFICIENT_SCOPE: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  RAFFLE_NOT_FOUND: 404,
  ENTRY_NOT_FOUND: 404,
  PROJECT_NOT_FOUND: 404,
  DRAW_NOT_AVAILABLE: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  REQUEST_TIMEOUT: 408,
  WORKSPACE_NOT_FOUND: 404,
  MEMBER_NOT_FOUND: 404,
  WIN_NOT_FOUND: 404,
  ALREADY_ENTERED: 409,
  SLUG_TAKEN: 409,
  LAST_OWNER: 409,
  RAFFLE_CANNOT_UPDATE: 409,
  RAFFLE_CANNOT_PUBLISH: 409,
  RAFFLE_CANNOT_OPEN: 409,
  RAFFLE_CANNOT_CLOSE: 409,
  RAFFLE_CANNOT_DRAW: 409,
  /** The raffle's beacon round is not published yet: answered with Retry-After (seconds until it is due). */
  DRAW_BEACON_PENDING: 409,
  /** The first block at or after the raffle's close is not produced yet on a chain its requirements read: answered with Retry-After. */
  DRAW_CHAIN_PENDING: 409,
  RAFFLE_CANNOT_FINALIZE: 409,
  RAFFLE_CANNOT_CANCEL: 409,
  ENTRY_CANNOT_DISQUALIFY: 409,
  WIN_CANNOT_DISQUALIFY: 409,
  WIN_CANNOT_REROLL: 409,
  WIN_CANNOT_UPDATE_DELIVERY: 409,
  NO_ELIGIBLE_ENTRIES: 409,
  WEBHOOK_ENDPOINT_LIMIT: 409,
  WEBHOOK_ENDPOINT_DISABLED: 409,
  RAFFLE_NOT_OPEN: 409,
  RAFFLE_FULL: 409,
  ENTRY_NOT_WITHDRAWABLE: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  /** Another request with the key is running, or failed and is being released: answered with Retry-After. */
  IDEMPOTENCY_KEY_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  RANGE_NOT_SATISFIABLE: 416,
  UNSUPPORTED_MEDIA_TYPE: 415,
  REQUIREMENTS_NOT_MET: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  /** No beacon relay gave the raffle's round (a draw waits for it): answered with Retry-After. */
  BEACON_UNAVAILABLE: 503,
  /** A chain a requirement reads did not answer (the draw re-reads it at the close block): answered with Retry-After. */
  CHAIN_UNAVAILABLE: 503,
  USER_NOT_FOUND: 404,
  ALREADY_MEMBER: 409,
  /** A database refusal of input that validation let through (a unique or foreign-key conflict). */
  CONFLICT: 409,
  // Management's own: its session and API-key management refusals (the data plane never answers these).
  SESSION_TOKEN_MISSING: 401,
  SESSION_TOKEN_INVALID: 401,
  API_KEY_NOT_ACCEPTED: 401,
  API_KEY_NOT_FOUND: 404,
  API_KEY_LIMIT: 409,
  API_KEY_CANNOT_ROLL: 409,
  // Wallets linked by Sign-In with Ethereum (EIP-4361): each refusal names what was wrong.
  /** The message is not an EIP-4361 message, or a field of it is malformed. */
  SIWE_MESSAGE_INVALID: 400,
  /** The signature does not recover to the message's address (nor does its contract wallet accept it). */
  SIWE_SIGNATURE_INVALID: 400,
  /** The nonce was never issued to this user, or was already used. */
  SIWE_NONCE_INVALID: 409,
  /** The nonce or the message's expirationTime has passed, or its notBefore has not come yet. */
  SIWE_MESSAGE_EXPIRED: 409,
  /** The message's domain or URI is not the console's. */
  SIWE_DOMAIN_MISMATCH: 403,
  /** The message's chain id is not one this platform reads (CHAIN_RPC_URLS). */
  SIWE_CHAIN_UNSUPPORTED: 400,
  WALLET_NOT_FOUND: 404,
  // Discord and X accounts linked by OAuth 2.0 (issue 36): each refusal of a callback names what was wrong.
  /** No client is configured for the provider here, so no account of it can be linked. */
  PROVIDER_NOT_CONFIGURED: 404,
  /** The flow's state was not issued to this user for this provider (unknown, another user's, another provider's). */
  OAUTH_STATE_INVALID: 400,
  /** The flow's state was already used: a callback completes once. */
  OAUTH_STATE_USED: 409,
  /** The flow's state is older than its 10 minutes. */
  OAUTH_STATE_EXPIRED: 409,
  /** The user refused at the provider's consent page (`access_denied`). */
  OAUTH_ACCESS_DENIED: 403,
  /** The provider answered the flow with another error, or refused the code (used, expired, another client's, a PKCE mismatch). */
  OAUTH_CODE_REJECTED: 400,
  /**
   * The provider did not answer, answered too slowly or asked to wait (linking, or a draw re-reading
   * the entrants' Discord and X requirements): answered with Retry-After.
   */
  PROVIDER_UNAVAILABLE: 503,
  CONNECTION_NOT_FOUND: 404,
  // Allowlists (issue 35).
  /** The caller holds no leaf of the raffle's current allowlist: not a finalized winner, or no wallet on its chain. */
  NOT_ON_ALLOWLIST: 404,
  /** The raffle's allowlist has no published version yet (not finalized, waiting for the wallet deadline, or being built). */
  ALLOWLIST_NOT_PUBLISHED: 409,
  /** Winners of this raffle cannot name a wallet: it sets no wallet deadline, or the deadline has passed. */
  WALLET_NAMING_CLOSED: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_PATTERN = '^[A-Z][A-Z0-9_]{1,63}$';

/** The statuses the spec lists on every data-plane route. */
export const DATA_PLANE_ROUTE_ERROR_STATUSES = [400, 401, 403, 404, 409, 422, 429, 500] as const;
/** The statuses product.md lists for management routes. */
export const MANAGEMENT_ROUTE_ERROR_STATUSES = [400, 401, 403, 404, 409, 500] as const;

const RequirementFailureSchema = Type.Object(
  {
    type: Type.String(),
    label: Type.String(),
    detail: Type.Optional(Type.String({ description: 'What failed, about the entrant only, e.g. "holds 0 Nebula Pass, needs 1".' })),
  },
  { $id: 'RequirementFailure', additionalProperties: false },
);

const errorBodyFields = {
  statusCode: Type.Integer({ minimum: 400, maximum: 599 }),
  error: Type.String({ description: 'The HTTP reason phrase of statusCode.' }),
  message: Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1 })], {
    description:
      'What went wrong, for people. A string, except for a refusal of the request\'s shape by its schema (400 `VALIDATION_FAILED`; on management also a page query\'s `INVALID_LIMIT` and `INVALID_CURSOR`): then an array, one message per problem, naming where it is (`body.spots must be >= 1`). On management, where the body has no `code`, each message (each item of an array too) leads with the code: `VALIDATION_FAILED: body.spots must be >= 1`.',
  }),
  requestId: Nullable(Type.String()),
  timestamp: DateTime(),
  path: Type.String(),
};

export const ErrorBodySchema = Type.Object(
  {
    ...errorBodyFields,
    code: Type.String({ pattern: ERROR_CODE_PATTERN, description: 'One of the catalogue\'s codes; each operation lists those it answers per status.', examples: ['RAFFLE_NOT_FOUND'] }),
    failedRequirements: Type.Optional(Type.Array(Type.Ref(RequirementFailureSchema))),
    requirementFailures: Type.Optional(Type.Array(Type.Unknown())),
    incompleteRequirements: Type.Optional(Type.Array(Type.Unknown())),
    failures: Type.Optional(Type.Array(Type.Unknown())),
    results: Type.Optional(Type.Array(Type.Unknown())),
    evaluation: Type.Optional(Type.Unknown()),
  },
  { $id: 'ErrorBody', additionalProperties: false },
);
export type ErrorBody = Static<typeof ErrorBodySchema>;

export const ManagementErrorBodySchema = Type.Object(errorBodyFields, {
  $id: 'ManagementErrorBody',
  additionalProperties: false,
});
export type ManagementErrorBody = Static<typeof ManagementErrorBodySchema>;

export type RequirementFailure = Static<typeof RequirementFailureSchema>;

export { RequirementFailureSchema };
