import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BeaconRoundPending, BeaconUnavailable } from '@raffle/beacon';
import { ChainNotConfigured, ChainUnavailable } from '@raffle/chain';
import { DashboardRaffleSchema, DrawRaffleBodySchema, ManagementErrorBodySchema } from '@raffle/contracts';
import { CloseBlockPending, DomainError, drawRaffleMoved, ProviderWaitAtDraw, RAFFLE_ACTIONS, RAFFLE_TRANSITIONS, userPrincipal, type MovedRaffle, type RaffleTarget } from '@raffle/domain';
import type { Db } from '@raffle/db';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { beaconChainOf, beaconRoundsOf, chainReaderOf, dashboardUserIdOf, socialReaderOf } from '../../decorations.js';
import { RATE_LIMIT_BUCKETS } from '../../plugins/rate-limit.js';
import { checkedWorkspaceRoleOf, requireWorkspaceAccess } from '../shared/workspace-access.js';
import { managementResponses } from '../responses.js';
import { NoOptionsBody, RAFFLE_TAGS, RAFFLES_BASE, WorkspaceRaffleParams } from './params.js';

/** The actions that take no options; draw (below) takes the application raffle's selection. */
const ACTIONS: Array<{ action: 'publish' | 'open' | 'close' | 'finalize' | 'cancel'; summary: string; description: string; run: (db: Db, t: RaffleTarget) => Promise<MovedRaffle> }> = [
  {
    action: 'publish',
    summary: 'Publish a draft: scheduled until startsAt, or open at once',
    description:
      'Generates the draw seed and makes its commitment public. 409 `RAFFLE_CANNOT_PUBLISH` unless draft, or when endsAt has passed; 409 `SLUG_TAKEN` when the slug is not available: published raffles are addressed by slug alone, so a slug a raffle of any workspace has published (public, unlisted or private, cancelled ones included) is never given to another. That answer is the same whichever holds it and says nothing about the raffle; publishes are limited per user (`raffle-publish`), so it is no fast way to find hidden raffles\' slugs (docs/decisions/0042).',
    run: RAFFLE_TRANSITIONS.publish,
  },
  { action: 'open', summary: 'Open a scheduled raffle now, before its startsAt', description: '409 `RAFFLE_CANNOT_OPEN` unless scheduled.', run: RAFFLE_TRANSITIONS.open },
  { action: 'close', summary: 'Close an open raffle to entries now', description: '409 `RAFFLE_CANNOT_CLOSE` unless open.', run: RAFFLE_TRANSITIONS.close },
  {
    action: 'finalize',
    summary: 'Finalize a drawn raffle: its selected wins become final',
    description: '409 `RAFFLE_CANNOT_FINALIZE` unless drawn.',
    run: RAFFLE_TRANSITIONS.finalize,
  },
  {
    action: 'cancel',
    summary: 'Cancel a raffle that has not closed; wins already handed out are disqualified',
    description: '409 `RAFFLE_CANNOT_CANCEL` unless draft, scheduled or open.',
    run: RAFFLE_TRANSITIONS.cancel,
  },
];

/**
 * Lifecycle actions (owners and admins); each answers the raffle after the transition, as the
 * domain rendered it from the row it locked: the handler reads nothing itself, and hands the domain
 * the role the access hook read.
 */
const raffleLifecycleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const { action, summary, description, run } of ACTIONS) {
    app.post(
      `${RAFFLES_BASE}/:raffleId/${action}`,
      {
        schema: {
          operationId: `${action}Raffle`,
          'x-error-codes': action === 'publish' ? [RAFFLE_ACTIONS[action].code, 'SLUG_TAKEN'] : [RAFFLE_ACTIONS[action].code],
          tags: RAFFLE_TAGS,
          summary,
          description: `Owners and admins only. ${description} Invalid transitions answer 409 with the code leading the message. A bodiless POST is accepted.`,
          params: WorkspaceRaffleParams,
          body: NoOptionsBody,
          response: managementResponses(200, Type.Ref(DashboardRaffleSchema)),
        },
        preParsing: requireWorkspaceAccess(app, 'manage'),
        // A publish claims a slug for every workspace: its refusal is counted (decision 0042).
        config: { optionalBody: true, ...(action === 'publish' ? { rateLimitBuckets: [RATE_LIMIT_BUCKETS.rafflePublish] } : {}) },
      },
      async (request) =>
        (await run(app.database.db, { ...request.params, ...actorOf(request), beacon: beaconChainOf(app) })).dashboard,
    );
  }

  app.post(
    `${RAFFLES_BASE}/:raffleId/draw`,
    {
      schema: {
        operationId: 'drawRaffle',
        'x-error-codes': ['RAFFLE_CANNOT_DRAW', 'NO_ELIGIBLE_ENTRIES', 'DRAW_BEACON_PENDING', 'BEACON_UNAVAILABLE', 'DRAW_CHAIN_PENDING', 'CHAIN_UNAVAILABLE', 'PROVIDER_UNAVAILABLE'],
        tags: RAFFLE_TAGS,
        summary: 'Select the winners of a closed raffle',
        description: [
          'Owners and admins only. Requirements are re-checked first. A `raffle` draws verifiably by weight, a `collection` takes every eligible entry in arrival order up to spots, an `application` raffle takes the entries named in `entryIds` (in position order; required for it, refused for the others), and an `fcfs` raffle already holds its winners.',
          `409 \`${RAFFLE_ACTIONS.draw.code}\` unless closed. A bodiless POST is accepted.`,
          'A `raffle` closed with a `beaconRound` draws with algorithm `es-hmac-sha256-drand-v1`, mixing that round of the public randomness beacon into the seed, so it waits for the round: before the round is published the answer is 409 `DRAW_BEACON_PENDING` with `Retry-After` (the seconds until it is due), and when no beacon relay gives it, 503 `BEACON_UNAVAILABLE` with `Retry-After`; nothing was done either way.',
          'A raffle whose requirements read a chain (`token_balance`, `native_balance`) re-evaluates them for every valid and pending entry at one block per chain, the first whose timestamp is at or after `closedAt`, named in the draw proof (`eligibilityBlocks`): before that block exists the answer is 409 `DRAW_CHAIN_PENDING` with `Retry-After`, and when the chain does not answer, 503 `CHAIN_UNAVAILABLE` with `Retry-After`; nothing was done either way.',
          'A raffle whose requirements read Discord or X (`discord_member`, `discord_role`, `x_follows`, `x_account_age_days`) re-reads them for every valid and pending entrant with their own linked account before drawing: an entrant who left the server, lost the role, unfollowed, or whose link is gone is not drawn (the entry becomes invalid with the reason); when the provider does not answer for some entrant, or asks to wait, the answer is 503 `PROVIDER_UNAVAILABLE` with `Retry-After` (never before the provider\'s reset) and nothing was done.',
        ].join(' '),
        params: WorkspaceRaffleParams,
        body: Type.Ref(DrawRaffleBodySchema),
        response: {
          ...managementResponses(200, Type.Ref(DashboardRaffleSchema)),
          409: { ...Type.Ref(ManagementErrorBodySchema), headers: { 'Retry-After': { type: 'integer', minimum: 1 } } },
        },
      },
      preParsing: requireWorkspaceAccess(app, 'manage'),
      config: { optionalBody: true },
    },
    async (request, reply) => {
      const { entryIds } = request.body;
      const { dashboard } = await drawRaffleMoved(app.database.db, {
        ...request.params,
        ...actorOf(request),
        rounds: beaconRoundsOf(app),
        chainReader: chainReaderOf(app),
        social: { reader: socialReaderOf(app) },
        ...(entryIds ? { selection: { entryIds } } : {}),
      }).catch((error: unknown) => {
        throw beaconRefusal(error, reply) ?? chainRefusal(error, reply) ?? providerRefusal(error, reply) ?? error;
      });
      return dashboard;
    },
  );
};

/** The signed-in user, and the role in the route's workspace the access hook read for them. */
function actorOf(request: FastifyRequest): Pick<RaffleTarget, 'actor' | 'actorRole'> {
  const actorRole = checkedWorkspaceRoleOf(request);
  return { actor: userPrincipal(dashboardUserIdOf(request)!), ...(actorRole === undefined ? {} : { actorRole }) };
}

/** A draw that could not get its beacon round, as the refusal the caller retries (with Retry-After); null for any other error. */
function beaconRefusal(error: unknown, reply: { header(name: string, value: string): unknown }): DomainError | null {
  if (error instanceof BeaconRoundPending) {
    const seconds = Math.max(1, Math.ceil(error.retryAfterSeconds));
    reply.header('retry-after', String(seconds));
    return new DomainError('DRAW_BEACON_PENDING', `the raffle draws with beacon round ${error.round}, which is not published yet; retry in ${seconds} s`);
  }
  if (error instanceof BeaconUnavailable) {
    reply.header('retry-after', '10');
    return new DomainError('BEACON_UNAVAILABLE', `no beacon relay gave round ${error.round}, which the draw needs; the raffle stays closed, retry later`);
  }
  return null;
}

/** A draw that could not pin or read its close blocks, as the refusal the caller retries (with Retry-After); null for any other error. */
function chainRefusal(error: unknown, reply: { header(name: string, value: string): unknown }): DomainError | null {
  if (error instanceof CloseBlockPending) {
    reply.header('retry-after', String(error.retryAfterSeconds));
    return new DomainError('DRAW_CHAIN_PENDING', `chain ${error.chain} has not produced the first block at or after the close yet; the draw re-reads requirements there, retry in ${error.retryAfterSeconds} s`);
  }
  if (error instanceof ChainUnavailable) {
    reply.header('retry-after', '10');
    return new DomainError('CHAIN_UNAVAILABLE', `chain ${error.chain}, which the raffle's requirements read, did not answer; the raffle stays closed, retry later`);
  }
  if (error instanceof ChainNotConfigured) {
    // A deployment that dropped the chain from CHAIN_RPC_URLS after the raffle named it: it can be drawn once the chain is back.
    reply.header('retry-after', '10');
    return new DomainError('CHAIN_UNAVAILABLE', `chain ${error.chain}, which the raffle's requirements read, is not configured here (CHAIN_RPC_URLS); the raffle stays closed`);
  }
  return null;
}

/** A draw whose entrants a provider could not be asked about now, as the refusal the caller retries (with Retry-After); null for any other error. */
function providerRefusal(error: unknown, reply: { header(name: string, value: string): unknown }): DomainError | null {
  if (!(error instanceof ProviderWaitAtDraw)) return null;
  reply.header('retry-after', String(error.retryAfterSeconds));
  return new DomainError('PROVIDER_UNAVAILABLE', `${error.message}; the draw re-reads every entrant's requirements there, so the raffle stays closed: retry in ${error.retryAfterSeconds} s`);
}

export default raffleLifecycleRoutes;
