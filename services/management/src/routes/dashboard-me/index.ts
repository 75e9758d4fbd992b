import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ProfileSchema } from '@raffle/contracts';
import { findProfileJson } from '@raffle/db';
import { DomainError } from '@raffle/domain';
import { sendRenderedJson } from '@raffle/service-kit';
import { Type } from '@sinclair/typebox';
import { dashboardUserIdOf } from '../../decorations.js';
import { managementResponses } from '../responses.js';

/**
 * The signed-in user's own profile, the same stored rendering the data plane's `GET /api/v1/me`
 * sends, so one user looks the same in both APIs. The session check has already refused a token
 * whose user does not exist (401); a user deleted between that check and this read gets the same
 * 401, which is what their next request would get.
 */
const dashboardMeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/me',
    {
      schema: {
        operationId: 'getMyProfile',
        tags: ['Dashboard profile'],
        summary: "The signed-in user's profile",
        description: 'The same representation as the data plane\'s `GET /api/v1/me`: id, handle, display name, avatar, wallets and when the account was created.',
        response: managementResponses(200, Type.Ref(ProfileSchema)),
      },
    },
    async (request, reply) => {
      const json = await findProfileJson(app.database.sql, dashboardUserIdOf(request)!);
      if (!json) throw new DomainError('SESSION_TOKEN_INVALID', 'the session token is invalid or expired');
      return sendRenderedJson(reply, json);
    },
  );
};

export default dashboardMeRoutes;
