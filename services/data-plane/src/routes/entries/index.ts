import { PageOf, PAGE_SIZES, PageQuerySchema, SanitizedEntrySchema } from '@raffle/contracts';
import { findOwnerEntryJson, findRaffleIdVisibleToUser, pageUserEntries } from '@raffle/db';
import { cursorBinding, DomainError, enterRaffle, hashIp, isStringKey, loadJsonPage, userPrincipal, withdrawEntry } from '@raffle/domain';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { heldIdempotencyOf, markIdempotencyCompleted } from '@raffle/service-kit';
import { beaconChainOf, callerOf, chainReaderOf, configOf, cursorsOf, pendingEntriesOf, readRoutingOf, socialReaderOf } from '../../decorations.js';
import { dataPlaneReadResponses, dataPlaneWriteResponses, RoutedReadHeaders, SlugParams } from '../responses.js';
import { sendRenderedJson } from '@raffle/service-kit';

export const SanitizedEntryPageSchema = PageOf(Type.Ref(SanitizedEntrySchema), 'SanitizedEntryPage');

/** Entering takes no options: the body is empty, or absent. */
const EnterRaffleBody = Type.Object({}, { additionalProperties: false, maxProperties: 0, description: 'Empty; the body may also be omitted.' });

const entryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Read once: the codec is decorated before any route plugin registers.
  const cursors = cursorsOf(app);
  const reads = readRoutingOf(app);
  app.addSchema(SanitizedEntryPageSchema);

  app.get(
    '/entries',
    {
      config: { access: { keyType: 'personal', scope: 'entries:read' } },
      schema: {
        operationId: 'listMyEntries',
        tags: ['Personal'],
        summary: "The key owner's entries, newest first",
        querystring: PageQuerySchema(PAGE_SIZES.personalEntries),
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Ref(SanitizedEntryPageSchema)),
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request)!;
      const body = await reads.read(request, reply, (database) =>
        loadJsonPage(
          { ...request.query, cursors },
          { binding: cursorBinding('v1:my-entries', userId), rule: PAGE_SIZES.personalEntries, isKey: isStringKey },
          (after, limit) => pageUserEntries(database.sql, { userId, before: after, limit }),
          (row) => row.id,
        ),
      );
      return sendRenderedJson(reply, body);
    },
  );

  app.get(
    '/raffles/:slug/entries/me',
    {
      config: { access: { keyType: 'personal', scope: 'entries:read' } },
      schema: {
        operationId: 'getMyEntry',
        'x-error-codes': ['RAFFLE_NOT_FOUND', 'ENTRY_NOT_FOUND'],
        tags: ['Personal'],
        summary: "The key owner's entry in a raffle",
        params: SlugParams,
        headers: RoutedReadHeaders,
        response: dataPlaneReadResponses(Type.Ref(SanitizedEntrySchema)),
      },
    },
    async (request, reply) => {
      const { userId } = callerOf(request)!;
      const json = await reads.read(request, reply, async (database) => {
        const raffleId = await findRaffleIdVisibleToUser(database.sql, { slug: request.params.slug, userId });
        if (!raffleId) throw new DomainError('RAFFLE_NOT_FOUND', `no raffle with slug "${request.params.slug}"`);
        return findOwnerEntryJson(database.sql, { raffleId, userId });
      });
      if (!json) throw new DomainError('ENTRY_NOT_FOUND', 'you have not entered this raffle');
      return sendRenderedJson(reply, json);
    },
  );

  app.post(
    '/raffles/:slug/entries',
    {
      config: { access: { keyType: 'personal', scope: 'entries:write' }, idempotent: true, optionalBody: true },
      schema: {
        operationId: 'enterRaffle',
        'x-error-codes': ['RAFFLE_NOT_FOUND', 'ALREADY_ENTERED', 'RAFFLE_NOT_OPEN', 'RAFFLE_FULL', 'REQUIREMENTS_NOT_MET'],
        tags: ['Personal'],
        summary: 'Enter a raffle as the key owner',
        description:
          'The raffle must be open and visible to you; you must meet its requirements (422 `REQUIREMENTS_NOT_MET` lists the failed ones) and not have entered before (409 `ALREADY_ENTERED`). ' +
          'A closed or cancelled raffle is 409 `RAFFLE_NOT_OPEN`; a first-come raffle whose spots are taken is 409 `RAFFLE_FULL`. ' +
          'On-chain requirements (`token_balance`, `native_balance`) are read over your verified wallets at the latest block; a failed one says what was found in `detail` (e.g. "holds 0 Nebula Pass, needs 1"). ' +
          'Discord and X requirements (`discord_member`, `discord_role`, `x_follows`, `x_account_age_days`) are read with the accounts you linked (GET /api/dashboard/me/connections); without a linked account, or with a link the provider revoked, they fail and `detail` says to link it (again). ' +
          'When the chain or such a provider does not answer in time, or asks to wait, the entry is still accepted, with status `pending` (201): it is evaluated as soon as they answer, becomes `valid` or `invalid`, and an `entry.updated` event says so; a pending first-come entry takes a spot only then.',
        params: SlugParams,
        body: EnterRaffleBody,
        response: dataPlaneWriteResponses(201, Type.Ref(SanitizedEntrySchema)),
      },
    },
    async (request, reply) => {
      const held = heldIdempotencyOf(request);
      const { entry } = await enterRaffle(app.database.db, {
        raffle: { slug: request.params.slug },
        actor: userPrincipal(callerOf(request)!.userId),
        source: 'api',
        ipHash: hashIp(configOf(app).IP_HASH_SECRET, request.ip),
        beacon: beaconChainOf(app),
        chain: { reader: chainReaderOf(app), timeoutMs: configOf(app).CHAIN_ENTRY_TIMEOUT_MS },
        social: { reader: socialReaderOf(app) },
        // The entry and the response its Idempotency-Key replays commit together.
        idempotency: held ? { apiKeyId: held.apiKeyId, key: held.key } : undefined,
      });
      if (held) markIdempotencyCompleted(request);
      if (entry.status === 'pending') pendingEntriesOf(app).nudge();
      await reads.wrote(request, reply);
      return sendRenderedJson(reply.status(201), entry.ownerJson);
    },
  );

  app.delete(
    '/raffles/:slug/entries/me',
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
        response: dataPlaneWriteResponses(200, Type.Ref(SanitizedEntrySchema)),
      },
    },
    async (request, reply) => {
      const entry = await withdrawEntry(app.database.db, { raffle: { slug: request.params.slug }, actor: userPrincipal(callerOf(request)!.userId) });
      await reads.wrote(request, reply);
      return sendRenderedJson(reply, entry.ownerJson);
    },
  );
};

export default entryRoutes;
