import { Type, type Static } from '@sinclair/typebox';
import { CONNECTION_STATUSES, SOCIAL_PROVIDERS, type ConnectionStatus, type SocialProviderName } from '../domain-values.js';
import { DateTime, StringEnum } from '../primitives.js';

/** A Discord or X account the signed-in user linked by OAuth 2.0. Never its tokens: they stay sealed in the database. */
export const ConnectionSchema = Type.Object(
  {
    provider: StringEnum(SOCIAL_PROVIDERS),
    accountId: Type.String({ description: "The account's id at the provider (a Discord snowflake, an X user id)." }),
    accountName: Type.String({ description: "The account's username at the provider, as it was when linked." }),
    scopes: Type.Array(Type.String(), { description: 'The scopes the user granted.' }),
    linkedAt: DateTime('When the account was (last) linked.'),
    status: StringEnum(
      CONNECTION_STATUSES,
      '`active`, or `revoked`: the provider refused to renew the link (the user removed the app there, or the grant ended); requirements read from it fail until the account is linked again.',
    ),
  },
  {
    $id: 'Connection',
    additionalProperties: false,
    examples: [{ provider: 'discord', accountId: '298033820467200001', accountName: 'alice', scopes: ['identify', 'guilds.members.read'], linkedAt: '2026-03-14T16:00:00.000Z', status: 'active' }],
  },
);
export type Connection = Static<typeof ConnectionSchema> & { provider: SocialProviderName; status: ConnectionStatus };

/**
 * The user's connections, and the providers this deployment offers (those with a client
 * configured). Not paginated: there is at most one connection per provider.
 */
export const ConnectionListSchema = Type.Object(
  {
    data: Type.Array(Type.Ref(ConnectionSchema)),
    providers: Type.Array(StringEnum(SOCIAL_PROVIDERS), { description: 'The providers an account can be linked with here.' }),
  },
  { $id: 'ConnectionList', additionalProperties: false },
);
export type ConnectionList = { data: Connection[]; providers: SocialProviderName[] };

/** Where to send the user's browser to consent, and until when the flow may be completed. */
export const ConnectionStartSchema = Type.Object(
  {
    authorizationUrl: Type.String({
      description:
        "The provider's consent page (authorization code flow with PKCE). The provider sends the browser back to the console's `/connections/{provider}/callback` with `code` and `state` (or `error`).",
    }),
    expiresAt: DateTime('After this the flow\'s state is refused (409 OAUTH_STATE_EXPIRED); start again.'),
  },
  {
    $id: 'ConnectionStart',
    additionalProperties: false,
    examples: [
      {
        authorizationUrl:
          'https://discord.com/oauth2/authorize?response_type=code&client_id=123&redirect_uri=https%3A%2F%2Fconsole.example.com%2Fconnections%2Fdiscord%2Fcallback&state=q1…&code_challenge_method=S256&code_challenge=E9…&scope=identify+guilds.members.read',
        expiresAt: '2026-03-14T16:10:00.000Z',
      },
    ],
  },
);
export type ConnectionStart = Static<typeof ConnectionStartSchema>;

/** OAuth 2.0 values are short printable ASCII (RFC 6749 appendix A); the bounds keep hostile input out. */
const oauthValue = (description: string) => Type.String({ minLength: 1, maxLength: 2048, pattern: '^[\\x20-\\x7E]+$', description });

/**
 * What the provider handed the browser on its way back: `state` with either `code` (consent given)
 * or `error` (refused). The console's callback page sends them on as they came.
 */
export const CompleteConnectionBodySchema = Type.Object(
  {
    state: oauthValue('The `state` query parameter of the callback.'),
    code: Type.Optional(oauthValue('The `code` query parameter (the user consented).')),
    error: Type.Optional(oauthValue('The `error` query parameter (e.g. `access_denied`: the user refused).')),
    errorDescription: Type.Optional(oauthValue('The `error_description` query parameter, if any.')),
  },
  {
    $id: 'CompleteConnectionBody',
    additionalProperties: false,
    examples: [{ state: 'Sx4W2n3Yk0Qv8fJm6cLr1aTzHbPq9uEo', code: 'NhQy3m7vXb2Lk8pR' }],
  },
);
export type CompleteConnectionBody = Static<typeof CompleteConnectionBodySchema>;
