import { AllowlistLeafPageSchema, AllowlistLeafQuerySchema, AllowlistSchema } from '@raffle/contracts';
import { allowlistLeafPage, allowlistSettingsOf, allowlistView, DomainError, hasAllowlist } from '@raffle/domain';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { cursorsOf, readRoutingOf } from '../../decorations.js';
import { publicAllowlistRaffle } from '../allowlist-raffles.js';
import { publicCacheOnSend, sendCacheableJson } from '../public-http-cache.js';
import { PublicCacheableHeaders, publicCacheableResponses } from '../public-responses.js';
import { SlugParams } from '../responses.js';

/** A new version appears when the finalized winners change: a cache keeps a copy only briefly. */
const ALLOWLIST_CACHE_CONTROL = 'public, max-age=60';
const CACHE_CONTROL_DESCRIPTION = '`public, max-age=60`: a new version follows each change of the finalized winners, and changes the body and its `ETag`.';
const SLUG_REFUSED = 'The slug is not valid (empty, longer than 128 characters, or with control characters).';
const RAFFLE_NOT_VISIBLE = '`RAFFLE_NOT_FOUND`: no public or unlisted published raffle has this slug.';
const PUBLIC_ROUTE_NOTE =
  'No key: an `Authorization` or `X-API-Key` header is ignored. Public and unlisted published raffles only (404 `RAFFLE_NOT_FOUND` for private, draft, cancelled and unknown ones alike). ' +
  'Rate-limited per client IP (the `public` policy); cacheable (a strong `ETag`, `If-None-Match` for a 304, `Cache-Control: public, max-age=60`); CORS as for the other public routes.';

/**
 * The keyless side of a raffle's allowlist (issue 35): its roots and versions for anyone, so no
 * list can be swapped silently, and its leaves with their proofs when the workspace made them
 * public (the raffle setting `allowlistPublic`), so anyone can check the root was built from them.
 */
const publicAllowlistRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const cursors = cursorsOf(app);
  const reads = readRoutingOf(app);

  app.get(
    '/raffles/:slug/allowlist',
    {
      schema: {
        operationId: 'getPublicAllowlist',
        tags: ['Public'],
        summary: "A public or unlisted raffle's allowlist: status, current Merkle root, leaf encoding and every version, without an API key",
        description:
          'The same body as the workspace route: every published version with its root, leaf count and time, newest first; none is ever replaced or removed. ' +
          '`leavesPublic` says whether `GET /public/v1/raffles/{slug}/allowlist/leaves` lists the leaves. ' +
          PUBLIC_ROUTE_NOTE,
        security: [],
        'x-error-codes': ['RAFFLE_NOT_FOUND'],
        params: SlugParams,
        headers: PublicCacheableHeaders,
        response: publicCacheableResponses({
          ok: Type.Ref(AllowlistSchema),
          okDescription: 'The allowlist: its status, settings, current version and every version.',
          cacheControl: CACHE_CONTROL_DESCRIPTION,
          badRequest: SLUG_REFUSED,
          notFound: RAFFLE_NOT_VISIBLE,
        }),
      },
      config: { swagger: { exposeHeadRoute: true } },
      onSend: publicCacheOnSend,
    },
    async (request, reply) => {
      const view = await reads.read(request, reply, async (database) => allowlistView(database.db, await publicAllowlistRaffle(database, request.params.slug), new Date()));
      return sendCacheableJson(request, reply, JSON.stringify(view), ALLOWLIST_CACHE_CONTROL);
    },
  );

  app.get(
    '/raffles/:slug/allowlist/leaves',
    {
      schema: {
        operationId: 'listPublicAllowlistLeaves',
        tags: ['Public'],
        summary: "A public allowlist's leaves, each with its Merkle proof, without an API key",
        description:
          'Only when the raffle\'s `allowlistPublic` setting is on (404 `NOT_FOUND` otherwise, and for a raffle that is not an allowlist raffle). Pages and filters as the workspace route: ' +
          'the latest version unless `version` names another (404 `NOT_FOUND` for one it does not have), `address` for one wallet\'s leaf; 409 `ALLOWLIST_NOT_PUBLISHED` while no version is published. ' +
          'With every leaf public, anyone can rebuild the root from them (`raffle-verify-allowlist` does, and holds the leaf count against the draw proof\'s winners). ' +
          PUBLIC_ROUTE_NOTE,
        security: [],
        'x-error-codes': ['RAFFLE_NOT_FOUND', 'NOT_FOUND', 'ALLOWLIST_NOT_PUBLISHED', 'INVALID_LIMIT', 'INVALID_CURSOR'],
        params: SlugParams,
        querystring: AllowlistLeafQuerySchema,
        headers: PublicCacheableHeaders,
        response: publicCacheableResponses({
          ok: Type.Ref(AllowlistLeafPageSchema),
          okDescription: 'One page of the version\'s leaves, in address order, with the version and its root.',
          cacheControl: CACHE_CONTROL_DESCRIPTION,
          badRequest: `${SLUG_REFUSED} Also a bad \`limit\`, \`cursor\`, \`version\` or \`address\`.`,
          notFound: `${RAFFLE_NOT_VISIBLE} \`NOT_FOUND\`: its leaves are not public, or it has no such version.`,
          conflict: '`ALLOWLIST_NOT_PUBLISHED`: no version is published yet.',
        }),
      },
      config: { swagger: { exposeHeadRoute: true } },
      onSend: publicCacheOnSend,
    },
    async (request, reply) => {
      const page = await reads.read(request, reply, async (database) => {
        const raffle = await publicAllowlistRaffle(database, request.params.slug);
        if (!hasAllowlist(raffle) || !allowlistSettingsOf(raffle.settings).leavesPublic) {
          throw new DomainError('NOT_FOUND', `the leaves of the allowlist of ${raffle.slug} are not public: its workspace shares them with workspace keys only`);
        }
        return allowlistLeafPage(database.db, raffle, { ...request.query, cursors });
      });
      return sendCacheableJson(request, reply, JSON.stringify(page), ALLOWLIST_CACHE_CONTROL);
    },
  );
};

export default publicAllowlistRoutes;
