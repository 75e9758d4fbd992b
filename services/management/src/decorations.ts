import type { BeaconChain } from '@raffle/beacon';
import type { ChainReader } from '@raffle/chain';
import type { BeaconRounds, ConnectionLinking, ConnectionTokens, CursorCodec, SocialReader, WalletLinkChains, WalletLinkSettings } from '@raffle/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from './config.js';

/*
 * Management's own decorations, read through these accessors instead of a `declare module
 * 'fastify'`: an augmentation is global, and the data plane decorates `config` and `cursors` with
 * types of its own, so one typecheck of both services would clash. `getDecorator` also fails
 * loudly when the plugin that decorates has not been registered.
 */

export const configOf = (app: FastifyInstance) => app.getDecorator<Config>('config');

/** The EVM chains of CHAIN_RPC_URLS (chain-reader plugin): entries, draws at the close block, wallet links and the chains list read them through it. */
export const chainReaderOf = (app: FastifyInstance) => app.getDecorator<ChainReader>('chainReader');

/** The beacon chain this deployment pins (BEACON_CHAIN): a close fixes the draw's round on it. */
export const beaconChainOf = (app: FastifyInstance) => app.getDecorator<BeaconChain>('beaconChain');

/** The pinned chain's relay client (BEACON_RELAYS): draws fetch their verified round through it. */
export const beaconRoundsOf = (app: FastifyInstance) => app.getDecorator<BeaconRounds>('beaconRounds');


/** Signs and checks the dashboard lists' cursors (CURSOR_SECRET); refusals are INVALID_CURSOR in the dashboard's words. */
export const cursorsOf = (app: FastifyInstance) => app.getDecorator<CursorCodec>('cursors');

/**
 * The verified session JWT's `sub`, set before any /api/developer or /api/dashboard handler runs
 * (auth plugin). Read as a property, not through `getDecorator`: requests of contexts registered
 * before the auth plugin (the kit's /docs routes) do not carry it, and for those it is null.
 */
export const dashboardUserIdOf = (request: FastifyRequest): string | null => (request as FastifyRequest & { dashboardUserId?: string | null }).dashboardUserId ?? null;

/** The wallet routes' settings and chains (plugins/wallet-links.ts). */
export const walletLinksOf = (app: FastifyInstance) =>
  app.getDecorator<{ settings: WalletLinkSettings; chains: WalletLinkChains }>('walletLinks');

/** Reads Discord and X requirements with the entrants' linked accounts (plugins/social-reader.ts). */
export const socialReaderOf = (app: FastifyInstance) => app.getDecorator<SocialReader>('socialReader');

/** The connection routes' providers, sealing and account reader, and the linked accounts' tokens (plugins/connections.ts). */
export const connectionsOf = (app: FastifyInstance) => app.getDecorator<{ linking: ConnectionLinking; tokens: ConnectionTokens }>('connections');

/** The providers accounts can be linked with here (a client configured): a Discord or X requirement must read one of them. */
export const linkableProviders = (app: FastifyInstance) => (['discord', 'x'] as const).filter((provider) => connectionsOf(app).linking.oauth[provider] !== undefined);
