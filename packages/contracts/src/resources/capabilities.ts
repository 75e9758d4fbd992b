import { Type, type Static } from '@sinclair/typebox';

export const CapabilitiesSchema = Type.Object(
  {
    personalApiScopes: Type.Array(Type.String()),
    workspaceApiScopes: Type.Array(Type.String()),
    personalWebhookEvents: Type.Array(Type.String()),
    workspaceWebhookEvents: Type.Array(Type.String()),
  },
  { $id: 'Capabilities', additionalProperties: false },
);
export type Capabilities = Static<typeof CapabilitiesSchema>;
