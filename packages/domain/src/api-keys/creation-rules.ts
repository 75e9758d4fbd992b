import { scopesFor, PERSONAL_API_SCOPES, WORKSPACE_API_SCOPES, type ApiKeyKind, type CreateApiKeyBody } from '@raffle/contracts';

const ALL_SCOPES = new Set<string>([...PERSONAL_API_SCOPES, ...WORKSPACE_API_SCOPES]);

/** Scope and expiry rules the body schema cannot express; every problem is reported at once. */
export function apiKeyCreationProblems(kind: ApiKeyKind, body: CreateApiKeyBody, now: Date): string[] {
  const problems: string[] = [];
  if (body.name.trim().length === 0) problems.push('name must not be blank');
  const allowed = new Set<string>(scopesFor(kind));
  for (const scope of body.scopes) {
    if (allowed.has(scope)) continue;
    problems.push(
      ALL_SCOPES.has(scope)
        ? `scope ${JSON.stringify(scope)} is not available on ${kind} keys`
        : `scope ${JSON.stringify(scope)} is unknown; see GET /api/developer/capabilities`,
    );
  }
  if (new Set(body.scopes).size !== body.scopes.length) problems.push('scopes must not repeat');
  if (body.expiresAt !== undefined) {
    const at = Date.parse(body.expiresAt);
    if (Number.isNaN(at)) problems.push('expiresAt must be an ISO 8601 date-time');
    else if (at <= now.getTime()) problems.push('expiresAt must be in the future');
  }
  return problems;
}
