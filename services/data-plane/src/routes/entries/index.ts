import { PageOf, PAGE_SIZES, PageQuerySchema, SanitizedEntrySchema } from '@raffle/contracts';
import { completeIdempotentRequest, findOwnerEntryJson, findRaffleIdVisibleToUser, pageUserEntries } from '@raffle/db';
import { enterRaffle, hashIp, withdrawEntry } from '@raffle/domain';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isString } from '../../domain/cursor.js';
import { ApiError } from '../../errors.js';
import { dataPlaneCreatedResponses, dataPlaneResponses, SlugParams } from '../responses.js';
import { renderKeysetPage } from '../keyset-page.js';
import { sendRenderedJson } from '../send-json.js';

export const SanitizedEntryPageSchema = PageOf(Type.Ref(SanitizedEntrySchema), 'SanitizedEntryPage');

/** Entering takes no options: the body is empty, or absent. */
const EnterRaffleBody = Type.Object({}, { additionalProperties: false, maxProperties: 0, description: 'Empty; the body may also be omitted.' });

const entryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addSchema(SanitizedEntryPageSchema);

  // No body is a valid entry request, also from clients that label the missing body as JSON.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, body as string, done),
  );

  app.get(
    '/api/v1/entries',
    {
      config: { access: { keyType: 'personal', scope: 'entries:read' } },
      schema: {
        operationId: 'listMyEntries',
        tags: ['Personal'],
        summary: "The key owner's entries, newest first",
        querystring: PageQuerySchema(PAGE_SIZES.personalEntries),
        response: dataPlaneResponses(Type.Ref(SanitizedEntryPageSchema)),
      },
    },
    async (request, reply) => {
      const { userId } = request.caller!;
      const { limit = PAGE_SIZES.personalEntries.default, cursor } = request.query;
      const body = await renderKeysetPage(app, {
        binding: `v1:my-entries:${userId}`,
        cursor,
        isKey: isString,
        load: (before) => pageUserEntries(app.database.sql, { userId, before, limit }),
      });
      return sendRenderedJson(reply, body);
    },
  );

  app.get(
    '/api/v1/raffles/:slug/entries/me',
    {
      config: { access: { keyType: 'personal', scope: 'entries:read' } },
      schema: {
        operationId: 'getMyEntry',
        'x-error-codes': ['RAFFLE_NOT_FOUND', 'ENTRY_NOT_FOUND'],
        tags: ['Personal'],
        summary: "The key owner's entry in a raffle",
        params: SlugParams,
        response: dataPlaneResponses(Type.Ref(SanitizedEntrySchema)),
      },
    },
    async (request, reply) => {
      const { userId } = request.caller!;
      const raffleId = await findRaffleIdVisibleToUser(app.database.sql, { slug: request.params.slug, userId });
      if (!raffleId) throw new ApiError('RAFFLE_NOT_FOUND', `no raffle with slug "${request.params.slug}"`);
      const json = await findOwnerEntryJson(app.database.sql, { raffleId, userId });
      if (!json) throw new ApiError('ENTRY_NOT_FOUND', 'you have not entered this raffle');
      return sendRenderedJson(reply, json);
    },
  );

  app.post(
    '/api/v1/raffles/:slug/entries',
    {
      config: { access: { keyType: 'personal', scope: 'entries:write' }, idempotent: true },
      schema: {
        operationId: 'enterRaffle',
        'x-error-codes': ['RAFFLE_NOT_FOUND', 'ALREADY_ENTERED', 'RAFFLE_NOT_OPEN', 'RAFFLE_FULL', 'REQUIREMENTS_NOT_MET'],
        tags: ['Personal'],
        summary: 'Enter a raffle as the key owner',
        description:
          'The raffle must be open and visible to you; you must meet its requirements (422 `REQUIREMENTS_NOT_MET` lists the failed ones) and not have entered before (409 `ALREADY_ENTERED`). ' +
          'A closed or cancelled raffle is 409 `RAFFLE_NOT_OPEN`; a first-come raffle whose spots are taken is 409 `RAFFLE_FULL`.',
        params: SlugParams,
        body: EnterRaffleBody,
        response: dataPlaneCreatedResponses(Type.Ref(SanitizedEntrySchema)),
      },
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
    },
    async (request, reply) => {
      const held = request.idempotency;
      const { entry } = await enterRaffle(app.database.db, {
        raffle: { slug: request.params.slug },
        userId: request.caller!.userId,
        source: 'api',
        ipHash: hashIp(app.config.IP_HASH_SECRET, request.ip),
        // The entry and the response its Idempotency-Key replays commit together.
        inTransaction: held ? (tx, { entry }) => completeIdempotentRequest(tx, { ...held, status: 201, body: entry.ownerJson }) : undefined,
      });
      if (held) request.idempotency = null;
      return sendRenderedJson(reply.status(201), entry.ownerJson);
    },
  );

  app.delete(
    '/api/v1/raffles/:slug/entries/me',
    {
      config: { access: { keyType: 'personal', scope: 'entries:write' } },
      schema: {
        operationId: 'withdrawMyEntry',
        'x-error-codes': ['RAFFLE_NOT_FOUND', 'ENTRY_NOT_FOUND', 'ENTRY_NOT_WITHDRAWABLE'],
        tags: ['Personal'],
        summary: "Withdraw the key owner's entry from a raffle",
        description:
          'Only while the raffle is open, and not once the entry has won a spot (409 `ENTRY_NOT_WITHDRAWABLE`). A withdrawn entry stays on record with status `withdrawn`; the raffle cannot be entered again.',
        params: SlugParams,
        response: dataPlaneResponses(Type.Ref(SanitizedEntrySchema)),
      },
    },
    async (request, reply) => {
      const entry = await withdrawEntry(app.database.db, { raffle: { slug: request.params.slug }, userId: request.caller!.userId });
      return sendRenderedJson(reply, entry.ownerJson);
    },
  );
};

export default entryRoutes;
