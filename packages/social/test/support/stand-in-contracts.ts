import type { LocalDiscordRoute, LocalXRoute, StandInAnswer } from '../../src/local/index.js';
import { authorizationAnswerViolations, revocationAnswerViolations, tokenAnswerViolations } from './oauth2-answers.js';
import { loadContract, type ContractChecker, type Operation, type WireAnswer } from './openapi-contract.js';

const fixture = (name: string) => new URL(`../../fixtures/${name}`, import.meta.url);

let discord: ContractChecker | undefined;
let x: ContractChecker | undefined;
/** Loaded once per test file: compiling a schema out of a megabyte document is the slow part. */
export const discordDocument = () => (discord ??= loadContract(fixture('discord-openapi.json'), 'discord-openapi'));
export const xDocument = () => (x ??= loadContract(fixture('x-openapi.json'), 'x-openapi'));

/** Each stand-in route and the operation of the published document it imitates. */
export const DISCORD_OPERATIONS: Record<Exclude<LocalDiscordRoute, 'authorize' | 'token' | 'revoke'>, Operation> = {
  currentUser: { method: 'get', path: '/users/@me' },
  guildMember: { method: 'get', path: '/users/@me/guilds/{guild_id}/member' },
};

export const X_OPERATIONS: Record<Exclude<LocalXRoute, 'authorize' | 'token' | 'revoke'>, Operation> = {
  me: { method: 'get', path: '/2/users/me' },
  user: { method: 'get', path: '/2/users/{id}' },
};

function oauthViolations(route: 'authorize' | 'token' | 'revoke', answer: WireAnswer): string[] {
  if (route === 'authorize') return authorizationAnswerViolations(answer);
  if (route === 'token') return tokenAnswerViolations(answer);
  return revocationAnswerViolations(answer);
}

export function discordAnswerViolations(answer: StandInAnswer<LocalDiscordRoute>): string[] {
  const { route } = answer;
  return route === 'authorize' || route === 'token' || route === 'revoke' ? oauthViolations(route, answer) : discordDocument().violations(DISCORD_OPERATIONS[route], answer);
}

export function xAnswerViolations(answer: StandInAnswer<LocalXRoute>): string[] {
  const { route } = answer;
  return route === 'authorize' || route === 'token' || route === 'revoke' ? oauthViolations(route, answer) : xDocument().violations(X_OPERATIONS[route], answer);
}

/**
 * Collects every answer a stand-in gives during a test file; `violations()` checks them all, so
 * any answer any test provokes is held to the provider's document, not only the ones a contract
 * test asks for on purpose.
 */
export function answerRecorder<Route extends string>(check: (answer: StandInAnswer<Route>) => string[]) {
  const answers: StandInAnswer<Route>[] = [];
  return {
    record: (answer: StandInAnswer<Route>) => void answers.push(answer),
    answers: () => [...answers],
    violations: () => answers.flatMap(check),
  };
}

/** The `route status` pairs a recorder saw, to show a contract test provoked every answer it means to check. */
export const answeredKinds = (answers: ReadonlyArray<{ route: string; status: number }>) => [...new Set(answers.map((a) => `${a.route} ${a.status}`))].sort();
