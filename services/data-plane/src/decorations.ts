import type { BeaconChain } from '@raffle/beacon';
import type { CursorCodec, SocialReader } from '@raffle/domain';
import type { ChainReader } from '@raffle/chain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from './config.js';
import type { ApiKeyVerifier } from './plugins/api-key-verifier.js';
import type { Caller } from './plugins/caller.js';
import type { PendingEntryResolver } from './plugins/pending-entries.js';
import type { ReadRouting } from './plugins/read-routing.js';

/*
 * The data plane's own decorations, read through these accessors instead of a `declare module
 * 'fastify'`: an augmentation is global, and management decorates `config` and `cursors` with
 * types of its own, so one typecheck of both services would clash. `getDecorator` also fails
 * loudly when the plugin that decorates has not been registered.
 */

export const configOf = (app: FastifyInstance) => app.getDecorator<Config>('config');

/** The EVM chains of CHAIN_RPC_URLS (chain-reader plugin). */
export const chainReaderOf = (app: FastifyInstance) => app.getDecorator<ChainReader>('chainReader');

/** Reads Discord and X requirements with the entrants' linked accounts (social-reader plugin). */
export const socialReaderOf = (app: FastifyInstance) => app.getDecorator<SocialReader>('socialReader');

/** Settles pending entries; the entry route nudges it when it stored one (pending-entries plugin). */
export const pendingEntriesOf = (app: FastifyInstance) => app.getDecorator<PendingEntryResolver>('pendingEntries');

/** The beacon chain this deployment pins (BEACON_CHAIN): a close fixes the draw's round on it. */
export const beaconChainOf = (app: FastifyInstance) => app.getDecorator<BeaconChain>('beaconChain');

/** Signs and checks the lists' cursors (CURSOR_SECRET); refusals are INVALID_CURSOR in the API's words. */
export const cursorsOf = (app: FastifyInstance) => app.getDecorator<CursorCodec>('cursors');

/** Sends each read to the replica or the primary (DATABASE_READ_URL; read-routing plugin). */
export const readRoutingOf = (app: FastifyInstance) => app.getDecorator<ReadRouting>('readRouting');

/** Verifies presented API keys, with a short cache (auth plugin). */
export const apiKeysOf = (app: FastifyInstance) => app.getDecorator<ApiKeyVerifier>('apiKeys');

/**
 * What the data plane's plugins add to its requests. Read as properties, not through
 * `getDecorator`: requests of contexts registered before those plugins (the kit's /docs routes)
 * do not carry them, and for those the answer is simply null.
 */
type DataPlaneRequest = FastifyRequest & { caller?: Caller | null };

/** Who the request acts for, once its key verified; null on keyless routes (auth plugin). */
export const callerOf = (request: FastifyRequest): Caller | null => (request as DataPlaneRequest).caller ?? null;

