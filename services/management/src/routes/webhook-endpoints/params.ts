import { pathString } from '@raffle/service-kit';
import { Type } from '@sinclair/typebox';

const workspaceId = pathString('Workspace id');
const endpointId = pathString('Webhook endpoint id');
const deliveryId = pathString('Delivery id');

/** The path parameters of each route shape, for personal endpoints and for a workspace's. */
export const WEBHOOK_ENDPOINT_PARAMS = {
  personal: {
    list: undefined,
    endpoint: Type.Object({ endpointId }, { additionalProperties: false }),
    delivery: Type.Object({ endpointId, deliveryId }, { additionalProperties: false }),
  },
  workspace: {
    list: Type.Object({ workspaceId }, { additionalProperties: false }),
    endpoint: Type.Object({ workspaceId, endpointId }, { additionalProperties: false }),
    delivery: Type.Object({ workspaceId, endpointId, deliveryId }, { additionalProperties: false }),
  },
} as const;

/** For the POSTs that take no options: their routes set `optionalBody`, so a bodiless request stands for `{}`. */
export const NoOptionsBody = Type.Object({}, { additionalProperties: false, description: 'No options; the body may be omitted.' });
