import '@raffle/service-kit';
import type { CursorCodec } from '@raffle/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from './config.js';
import type { ManagementError } from './errors.js';
import type { ManagedRoute } from './plugins/auth.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** Signs and checks the dashboard lists' cursors (CURSOR_SECRET). */
    cursors: CursorCodec;
    /** Every /api/developer route; all of them require a dashboard JWT. */
    managedRoutes: readonly ManagedRoute[];
  }
  interface FastifyRequest {
    /** The verified JWT's `sub`, set before any /api/developer handler runs. */
    dashboardUserId: string | null;
    /** Why the session was refused; thrown once the rate limiter has counted the request. */
    sessionRefusal: ManagementError | null;
  }
}
