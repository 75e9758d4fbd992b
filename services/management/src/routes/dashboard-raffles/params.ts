import { Type } from '@sinclair/typebox';

export const RAFFLES_BASE = '/api/dashboard/workspaces/:workspaceId/raffles';
export const RAFFLE_TAGS = ['Dashboard raffles'];

/** As in ../responses.ts: path values reach SQL as parameters, and Postgres text cannot hold NUL. */
const pathString = (description: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000-\\u001f]+$', description });

const workspaceId = pathString('Workspace id');
const raffleId = pathString('Raffle id');

export const WorkspaceRaffleParams = Type.Object({ workspaceId, raffleId }, { additionalProperties: false });

export const RaffleEntryParams = Type.Object({ workspaceId, raffleId, entryId: pathString('Entry id') }, { additionalProperties: false });

export const RaffleWinParams = Type.Object({ workspaceId, raffleId, winId: pathString('Win id') }, { additionalProperties: false });

export const RaffleSlugParams = Type.Object({ slug: pathString('Raffle slug') }, { additionalProperties: false });

/** The body of an action that takes no options; a bodiless POST stands for it (see emptyBodyAsObject). */
export const NoOptionsBody = Type.Object({}, { additionalProperties: false, description: 'No options: send `{}` or no body.' });

/** A list's `limit` as the domain takes it: the query schema has already checked it is a plain integer in range. */
export const limitOf = (query: { limit?: string }) => (query.limit === undefined ? undefined : Number(query.limit));
