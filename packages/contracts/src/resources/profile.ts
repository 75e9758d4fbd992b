import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../primitives.js';

export const WalletSchema = Type.Object(
  { chain: Type.String(), address: Type.String(), verified: Type.Boolean() },
  { $id: 'Wallet', additionalProperties: false },
);

/** `GET /api/v1/me` and `GET /api/dashboard/me`: a user's own profile (product.md's User), the same in both APIs. */
export const ProfileSchema = Type.Object(
  {
    id: Type.String(),
    handle: Type.String(),
    displayName: Type.Optional(Type.String()),
    avatarUrl: Type.Optional(Type.String()),
    wallets: Type.Array(Type.Ref(WalletSchema)),
    createdAt: DateTime(),
  },
  {
    $id: 'Profile',
    additionalProperties: false,
    // A whole profile, optional fields included: the generated example shows only the required ones.
    examples: [
      {
        id: 'usr_01JM4Q8Z3V7T2K9R5X6W1B8N4D',
        handle: 'ada',
        displayName: 'Ada Lovelace',
        avatarUrl: 'https://nebula.example/avatars/ada.png',
        wallets: [{ chain: 'ethereum', address: '0x52908400098527886E0F7030069857D2E4169EE7', verified: true }],
        createdAt: '2026-03-14T16:00:00.000Z',
      },
    ],
  },
);
export type Profile = Static<typeof ProfileSchema>;
