import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../primitives.js';

const apiKeyRecordFields = {
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'Visible leading part of the key.' }),
  lastFour: Type.String({ description: 'Last four characters of the key.' }),
  scopes: Type.Array(Type.String()),
  expiresAt: Type.Optional(DateTime()),
  revokedAt: Type.Optional(DateTime()),
  lastUsedAt: Type.Optional(DateTime()),
  createdAt: DateTime(),
  updatedAt: DateTime(),
};

export const ApiKeyRecordSchema = Type.Object(apiKeyRecordFields, {
  $id: 'ApiKeyRecord',
  additionalProperties: false,
});
export type ApiKeyRecord = Static<typeof ApiKeyRecordSchema>;

/** The create (and roll) response: the only time the plaintext key is ever returned. */
export const CreatedApiKeySchema = Type.Object(
  { ...apiKeyRecordFields, apiKey: Type.String({ description: 'Full plaintext key. Never returned again.' }) },
  { $id: 'CreatedApiKey', additionalProperties: false },
);
export type CreatedApiKey = Static<typeof CreatedApiKeySchema>;

export const API_KEY_NAME_MAX_LENGTH = 100;

export const CreateApiKeyBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: API_KEY_NAME_MAX_LENGTH }),
    scopes: Type.Array(Type.String(), { minItems: 1, uniqueItems: true }),
    expiresAt: Type.Optional(DateTime('Must be in the future.')),
  },
  { $id: 'CreateApiKeyBody', additionalProperties: false },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBodySchema>;
