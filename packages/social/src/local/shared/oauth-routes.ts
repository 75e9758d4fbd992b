import type { FastifyInstance } from 'fastify';
import { DEMO_ACCOUNTS, isDemoAccountName, type DemoAccountName } from '../demo-accounts.js';
import type { LocalAuthorizationServer } from './authorization-server.js';
import { consentPage, errorPage } from './consent-page.js';
import type { LocalFaults } from './faults.js';
import { formOf, queryOf, type StandInHandler } from './stand-in-app.js';

export type OAuthRouteName = 'authorize' | 'token' | 'revoke';

export type OAuthRoutesOptions<Route extends string> = {
  providerName: string;
  paths: Record<OAuthRouteName, string>;
  server: LocalAuthorizationServer;
  faults: LocalFaults<Route | OAuthRouteName>;
  withFaults: (faults: LocalFaults<Route | OAuthRouteName>, route: Route | OAuthRouteName, handler: StandInHandler) => StandInHandler;
  /** Label on the consent page's button for an account (its name at this provider). */
  accountLabel: (account: DemoAccountName) => string;
  /** The body of a successful revocation: Discord answers `{}`, X `{"revoked":true}`. */
  revokedBody: unknown;
};

/**
 * The three OAuth endpoints of a stand-in. The consent page auto-consents as the demo account the
 * request names (`as=alice`, or OpenID's `login_hint=alice`), or lists them; `as=deny` refuses.
 */
export function registerOAuthRoutes<Route extends string>(app: FastifyInstance, options: OAuthRoutesOptions<Route>): void {
  const { server, faults, withFaults, paths, providerName } = options;

  app.get(
    paths.authorize,
    withFaults(faults, 'authorize', async (request, reply) => {
      const query = queryOf(request);
      const checked = server.checkAuthorizationRequest(query);
      if (checked.kind === 'show_error') return reply.code(400).type('text/html; charset=utf-8').send(errorPage(providerName, checked.message));
      if (checked.kind === 'redirect_error') {
        return reply.redirect(withParams(checked.redirectUri, { error: checked.error, error_description: checked.description, state: checked.state }));
      }
      const chosen = query.as ?? query.login_hint;
      if (chosen === 'deny') {
        return reply.redirect(withParams(checked.redirectUri, { error: 'access_denied', error_description: 'The user denied the request.', state: checked.state }));
      }
      if (!isDemoAccountName(chosen)) {
        const choices = Object.keys(DEMO_ACCOUNTS).filter(isDemoAccountName).map((account) => ({ account, label: options.accountLabel(account) }));
        return reply.type('text/html; charset=utf-8').send(consentPage({ providerName, actionPath: paths.authorize, query, choices, scopes: checked.scopes }));
      }
      const code = server.issueCode(checked, chosen);
      return reply.redirect(withParams(checked.redirectUri, { code, state: checked.state }));
    }),
  );

  app.post(
    paths.token,
    withFaults(faults, 'token', async (request, reply) => {
      const answer = server.token(formOf(request), request.headers.authorization);
      return reply.code(answer.status).header('cache-control', 'no-store').send(answer.body);
    }),
  );

  app.post(
    paths.revoke,
    withFaults(faults, 'revoke', async (request, reply) => {
      const answer = server.revoke(formOf(request), request.headers.authorization);
      return reply.code(answer.status).send(answer.status === 200 ? options.revokedBody : answer.body);
    }),
  );
}

function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}
