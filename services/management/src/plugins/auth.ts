import fastifyJwt, { type TokenOrHeader } from '@fastify/jwt';
import { API_KEY_PATTERN } from '@raffle/contracts';
import { userExists } from '@raffle/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { findUnstorableText } from '@raffle/service-kit';
import { DomainError } from '@raffle/domain';
import { configOf } from '../decorations.js';
import { JWKS_ALGORITHMS, JwksKeyError, JwksKeyStore, isJwksAlgorithm } from './jwks.js';
import { sessionLifetimeProblem } from './session-lifetime.js';

export const MANAGEMENT_PREFIX = '/api/developer';
/** The dashboard's own routes take the same session JWT. */
export const DASHBOARD_PREFIX = '/api/dashboard';

const requiresSession = (url: string) => url.startsWith(MANAGEMENT_PREFIX) || url.startsWith(DASHBOARD_PREFIX);

export const SECURITY_REQUIREMENT: Array<Record<string, string[]>> = [{ dashboardJwt: [] }];

/** One row per /api/developer route: the list the "API key as bearer" tests walk. */
export type ManagedRoute = { method: string; url: string };

type DashboardClaims = { sub?: unknown; exp?: unknown; iat?: unknown };

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * Dashboard-JWT authentication for every /api/developer route, never API keys. Either HS256 with
 * `JWT_SECRET`, or, when `JWT_JWKS_URL` is set, RS256/ES256 with the JWKS key named by the
 * token's `kid` (and `JWT_SECRET` unused). Each mode accepts only its own algorithms, so `alg:
 * none` and RS/HS confusion are refused by the verifier itself; `exp` and `sub` are required;
 * `iss`/`aud` are enforced when configured; `iat` may not be ahead of now and the token may not
 * live longer than `JWT_MAX_LIFETIME_SECONDS`; `sub` must name an existing user. Every failure
 * (an unknown kid and an unreachable JWKS included) is one 401 whose message does not say which
 * check failed.
 */
async function authPlugin(app: FastifyInstance) {
  const config = configOf(app);
  const verify = {
    // The bearer token the hook below has already parsed, not @fastify/jwt's stricter header split.
    extractToken: (request: FastifyRequest) => bearerToken(request) ?? undefined,
    // fast-jwt checks iss/aud only when present, so configured ones are also required.
    requiredClaims: ['exp', 'sub', ...(config.JWT_ISSUER ? ['iss'] : []), ...(config.JWT_AUDIENCE ? ['aud'] : [])],
    clockTolerance: config.JWT_CLOCK_TOLERANCE_SECONDS * 1000,
    ...(config.JWT_ISSUER ? { allowedIss: config.JWT_ISSUER } : {}),
    ...(config.JWT_AUDIENCE ? { allowedAud: config.JWT_AUDIENCE } : {}),
  };
  if (config.JWT_JWKS_URL) {
    const jwks = new JwksKeyStore({
      url: config.JWT_JWKS_URL,
      cacheTtlMs: config.JWT_JWKS_CACHE_TTL_SECONDS * 1000,
      log: app.log.child({ component: 'jwks' }),
    });
    await app.register(fastifyJwt, {
      // Verify-only: the key is looked up per token by its (required) kid; the header is only
      // trusted to pick a key, and the verifier re-checks the algorithm against the allow-list.
      secret: {
        public: async (_request: FastifyRequest, decoded: TokenOrHeader): Promise<string> => {
          const header = 'header' in decoded ? decoded.header : decoded;
          if (!isJwksAlgorithm(header.alg)) throw new JwksKeyError('algorithm not allowed');
          if (typeof header.kid !== 'string') throw new JwksKeyError('kid missing');
          return jwks.publicKeyPem(header.kid, header.alg);
        },
      },
      decode: { complete: true },
      verify: { ...verify, algorithms: [...JWKS_ALGORITHMS] },
    });
  } else {
    await app.register(fastifyJwt, {
      secret: config.JWT_SECRET,
      sign: { algorithm: 'HS256' },
      verify: { ...verify, algorithms: ['HS256'] },
    });
  }
  app.decorateRequest('dashboardUserId', null);

  const routes: ManagedRoute[] = [];
  app.decorate('managedRoutes', routes);

  app.addHook('onRoute', (route) => {
    if (!requiresSession(route.url)) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url });
    route.schema = {
      ...route.schema,
      security: SECURITY_REQUIREMENT,
      description: [route.schema?.description, 'Requires a dashboard session JWT (`Authorization: Bearer <JWT>`); API keys are refused.']
        .filter(Boolean)
        .join('\n\n'),
    };
  });

  app.decorateRequest('sessionRefusal', null);
  // Identify in onRequest, refuse in preParsing: in between the rate limiter counts the request
  // (per user, or per IP when the session is refused), so a flood of bad tokens is limited too.
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (!url || !requiresSession(url)) return;
    try {
      request.setDecorator('dashboardUserId', await sessionUserOf(request));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      request.setDecorator('sessionRefusal', error);
    }
  });
  app.addHook('preParsing', async (request) => {
    const url = request.routeOptions.url;
    if (!url || !requiresSession(url)) return;
    const refusal = request.getDecorator<DomainError | null>('sessionRefusal');
    if (refusal) throw refusal;
  });

  const lifetimeLimits = { maxLifetimeSeconds: config.JWT_MAX_LIFETIME_SECONDS, clockToleranceSeconds: config.JWT_CLOCK_TOLERANCE_SECONDS };

  /** One refusal for every way a token can fail, so the answer does not say which check failed. */
  const invalidSession = () => new DomainError('SESSION_TOKEN_INVALID', 'the session token is invalid or expired');

  /** The verified token's user; a 401 refusal for every way a session can be refused. */
  async function sessionUserOf(request: FastifyRequest): Promise<string> {
    const token = bearerToken(request);
    if (!token) throw new DomainError('SESSION_TOKEN_MISSING', 'send a dashboard session JWT as "Authorization: Bearer <token>"');
    if (API_KEY_PATTERN.test(token)) throw new DomainError('API_KEY_NOT_ACCEPTED', 'API keys are not accepted here; send a dashboard session JWT');
    let claims: DashboardClaims;
    try {
      claims = await request.jwtVerify<DashboardClaims>();
    } catch {
      throw invalidSession();
    }
    const lifetimeProblem = sessionLifetimeProblem(claims, Date.now(), lifetimeLimits);
    if (lifetimeProblem) {
      request.log.debug({ reason: lifetimeProblem }, 'session token refused for its times');
      throw invalidSession();
    }
    // A subject that is not storable text (NUL, a lone surrogate) cannot name a user: refuse it
    // here rather than let the user lookup fail in Postgres.
    if (typeof claims.sub !== 'string' || claims.sub.length === 0 || claims.sub.length > 128 || findUnstorableText(claims.sub)) {
      throw invalidSession();
    }
    if (!(await userExists(app.database.db, claims.sub))) throw invalidSession();
    return claims.sub;
  }
}

export default fp(authPlugin, { name: 'auth', dependencies: ['config', 'database'] });
