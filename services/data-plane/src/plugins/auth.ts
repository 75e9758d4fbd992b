import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DomainError } from '@raffle/domain';
import { callerOf, configOf } from '../decorations.js';
import { createApiKeyVerifier } from './api-key-verifier.js';
import type { Caller, RouteAccess } from './caller.js';
import { createKeyUseRecorder } from './key-use-recorder.js';
import { presentedApiKey } from './presented-key.js';

/** How often keys' `lastUsedAt` is written, in one statement for every key used since. */
const KEY_USE_FLUSH_INTERVAL_MS = 1000;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The key type and scope the route demands; every /api/v1 route declares it (checked at registration). */
    access?: RouteAccess;
  }
}

export const API_PREFIX = '/api/v1';
/** Keyless routes: what anyone may check, such as a drawn raffle's proof (decision 0013). */
export const PUBLIC_PREFIX = '/public/v1';

/** One row per /api/v1 route: the table the auth matrix tests are generated from. */
export type AccessTableRow = { method: string; url: string; access: RouteAccess };

export const SECURITY_REQUIREMENT: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }];

/** The 403s, in the order a caller can fix them: key type, then workspace, then scope. */
function authorize(caller: Caller, access: RouteAccess, request: FastifyRequest) {
  if (caller.kind !== access.keyType) {
    throw new DomainError('WRONG_KEY_TYPE', `this endpoint needs a ${access.keyType} key; a ${caller.kind} key was sent`);
  }
  const workspaceId = (request.params as { workspaceId?: string }).workspaceId;
  if (access.keyType === 'workspace' && workspaceId !== undefined && workspaceId !== caller.workspaceId) {
    throw new DomainError('WORKSPACE_MISMATCH', 'this key belongs to another workspace');
  }
  if (!caller.scopes.has(access.scope)) {
    throw new DomainError('INSUFFICIENT_SCOPE', `this endpoint needs the ${access.scope} scope`);
  }
}

/**
 * API-key authentication for every /api/v1 route. Every such route must declare its
 * `config.access`; registering one without it fails at start-up, so no route is ever public
 * by omission. /public/v1 routes are the deliberate exception: no key is asked for or read.
 * Identification runs first (so the rate limiter can key on the caller); refusals are thrown
 * after the limiter has counted the request.
 */
async function authPlugin(app: FastifyInstance) {
  const keyUse = createKeyUseRecorder({ sql: app.database.sql, flushIntervalMs: KEY_USE_FLUSH_INTERVAL_MS });
  // Registered after the database plugin, so closed before it: the last uses are written.
  app.addHook('onClose', () => keyUse.close());
  const apiKeys = createApiKeyVerifier({ sql: app.database.sql, cacheTtlMs: configOf(app).API_KEY_CACHE_TTL_MS, keyUse });
  app.decorate('apiKeys', apiKeys);
  app.decorateRequest('caller', null);
  app.decorateRequest('authFailure', null);

  const table: AccessTableRow[] = [];
  app.decorate('routeAccessTable', table);

  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(PUBLIC_PREFIX)) {
      // Public by where it lives, never by a missing declaration: a keyed route cannot sit here,
      // and a key sent anyway is not read (no caller, no 401 for a revoked or garbage key).
      if (route.config?.access) throw new Error(`route ${String(route.method)} ${route.url} declares access under ${PUBLIC_PREFIX}, which takes no key`);
      route.schema = { ...route.schema, security: [] };
      return;
    }
    if (!route.url.startsWith(API_PREFIX)) return;
    const access = route.config?.access;
    if (!access) throw new Error(`route ${String(route.method)} ${route.url} declares no access (key type and scope)`);
    for (const method of [route.method].flat()) if (method !== 'HEAD') table.push({ method, url: route.url, access });
    route.schema = {
      ...route.schema,
      security: SECURITY_REQUIREMENT,
      description: [route.schema?.description, `Requires a **${access.keyType}** key with the \`${access.scope}\` scope.`]
        .filter(Boolean)
        .join('\n\n'),
    };
  });

  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config.access) return;
    const key = presentedApiKey(request.headers);
    if (!key) {
      request.setDecorator('authFailure', new DomainError('API_KEY_MISSING', 'send an API key as "Authorization: Bearer <key>" or "X-API-Key: <key>"'));
      return;
    }
    try {
      request.setDecorator('caller', await apiKeys.verify(key));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      request.setDecorator('authFailure', error);
    }
  });

  app.addHook('preParsing', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access) return;
    const failure = request.getDecorator<DomainError | null>('authFailure');
    if (failure) throw failure;
    authorize(callerOf(request)!, access, request);
  });
}

export default fp(authPlugin, { name: 'auth', dependencies: ['config', 'database'] });
