import { pathString } from '@raffle/service-kit';
import { Type } from '@sinclair/typebox';

export const RAFFLES_BASE = '/workspaces/:workspaceId/raffles';
export const RAFFLE_TAGS = ['Dashboard raffles'];

const workspaceId = pathString('Workspace id');
const raffleId = pathString('Raffle id');

export const WorkspaceRaffleParams = Type.Object({ workspaceId, raffleId }, { additionalProperties: false });

export const RaffleEntryParams = Type.Object({ workspaceId, raffleId, entryId: pathString('Entry id') }, { additionalProperties: false });

export const RaffleWinParams = Type.Object({ workspaceId, raffleId, winId: pathString('Win id') }, { additionalProperties: false });

export const RaffleSlugParams = Type.Object({ slug: pathString('Raffle slug') }, { additionalProperties: false });

/** The body of an action that takes no options; its route sets `optionalBody`, so a bodiless POST stands for it. */
export const NoOptionsBody = Type.Object({}, { additionalProperties: false, description: 'No options: send `{}` or no body.' });
