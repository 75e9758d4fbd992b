import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../primitives.js';

export const WalletSchema = Type.Object(
  { chain: Type.String(), address: Type.String(), verified: Type.Boolean() },
  { $id: 'Wallet', additionalProperties: false },
);

/** `GET /api/v1/me`: the key owner's profile (product.md's User). */
export const ProfileSchema = Type.Object(
  {
    id: Type.String(),
    handle: Type.String(),
    displayName: Type.Optional(Type.String()),
    avatarUrl: Type.Optional(Type.String()),
    wallets: Type.Array(Type.Ref(WalletSchema)),
    createdAt: DateTime(),
  },
  { $id: 'Profile', additionalProperties: false },
);
export type Profile = Static<typeof ProfileSchema>;
