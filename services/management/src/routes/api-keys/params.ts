import { pathString } from '@raffle/service-kit';
import { Type } from '@sinclair/typebox';

const keyId = pathString('API key id');
const workspaceId = pathString('Workspace id');

/** The path parameters of each route shape, for personal keys and for a workspace's. */
export const API_KEY_PARAMS = {
  personal: { list: undefined, key: Type.Object({ keyId }) },
  workspace: { list: Type.Object({ workspaceId }), key: Type.Object({ workspaceId, keyId }) },
} as const;

export const RollApiKeyBodySchema = Type.Object(
  {
    expireOldInSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 604_800,
        default: 0,
        description: 'How long the old key keeps working; 0 (the default) revokes it at once. At most 7 days.',
      }),
    ),
  },
  { additionalProperties: false },
);
