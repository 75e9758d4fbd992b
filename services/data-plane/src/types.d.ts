import '@raffle/service-kit';
import type { ApiError } from './errors.js';
import type { ApiKeyVerifier } from './domain/api-key-verifier.js';
import type { Caller, RouteAccess } from './domain/caller.js';
import type { CursorCodec } from './domain/cursor.js';
import type { AccessTableRow } from './plugins/auth.js';
import type { Config } from './config.js';

import type { FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    apiKeys: ApiKeyVerifier;
    cursors: CursorCodec;
    routeAccessTable: readonly AccessTableRow[];
  }
  interface FastifyRequest {
    /** Set once the presented key verified. */
    caller: Caller | null;
    /** Why the presented key was refused; thrown after rate limiting has counted the request. */
    authFailure: ApiError | null;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}
