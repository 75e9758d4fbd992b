/** The single list of API-key scopes; management validates against it, the data plane enforces it. */
export const PERSONAL_API_SCOPES = [
  'profile:read',
  'raffles:read',
  'entries:read',
  'entries:write',
  'wins:read',
] as const;
export const WORKSPACE_API_SCOPES = ['raffles:read', 'entries:read', 'winners:read', 'projects:read'] as const;

export type PersonalApiScope = (typeof PERSONAL_API_SCOPES)[number];
export type WorkspaceApiScope = (typeof WORKSPACE_API_SCOPES)[number];
export type ApiScope = PersonalApiScope | WorkspaceApiScope;

export const API_KEY_KINDS = ['personal', 'workspace'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

export const API_KEY_PREFIXES: Record<ApiKeyKind, string> = { personal: 'svc_u_', workspace: 'svc_w_' };

export function scopesFor(kind: ApiKeyKind): readonly ApiScope[] {
  return kind === 'personal' ? PERSONAL_API_SCOPES : WORKSPACE_API_SCOPES;
}
