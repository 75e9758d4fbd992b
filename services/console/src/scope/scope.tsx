import type { Workspace } from '@raffle/sdk';
import { useQuery } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useManagement } from '../api/clients.js';

export type WorkspaceRole = 'owner' | 'admin' | 'member';
export type Scope = { kind: 'personal' } | { kind: 'workspace'; workspaceId: string; workspaceName: string; role: WorkspaceRole };
export type WorkspaceSummary = { id: string; name: string; slug: string; role: WorkspaceRole };
export type ScopeSection = 'keys' | 'webhooks' | 'raffles';
export type Permission = { allowed: boolean; reason?: string };

type ScopeState = {
  scope: Scope;
  workspaces: WorkspaceSummary[];
  workspacesLoading: boolean;
  workspacesError: unknown;
  /** The workspace in the URL when the user is not (or no longer) a member of it. */
  unknownWorkspaceId: string | null;
  setScope(next: { kind: 'personal' } | { kind: 'workspace'; workspaceId: string }): void;
  /** The URL of a section in the current scope, e.g. basePath + '/keys'. */
  basePath: string;
  can(action: 'manage' | 'member'): Permission;
};

const ScopeContext = createContext<ScopeState | null>(null);

/** Every page of the caller's workspaces: the switcher needs them all (a user belongs to few). */
export function useWorkspaces() {
  const mgmt = useManagement();
  return useQuery({
    queryKey: ['workspaces'],
    queryFn: async (): Promise<WorkspaceSummary[]> => {
      const all: WorkspaceSummary[] = [];
      for await (const w of mgmt.workspaces.list({ limit: 100 }) as AsyncIterable<Workspace>) {
        all.push({ id: w.id, name: w.name, slug: w.slug, role: w.role as WorkspaceRole });
      }
      return all;
    },
    staleTime: 60_000,
  });
}

const workspaceIdInPath = (pathname: string): string | null => /^\/w\/([^/]+)/.exec(pathname)?.[1] ?? null;
const sectionInPath = (pathname: string): ScopeSection => {
  const section = /^\/(?:personal|w\/[^/]+)\/(keys|webhooks|raffles)/.exec(pathname)?.[1];
  return (section as ScopeSection | undefined) ?? 'keys';
};

const MANAGE_REASON = 'Only owners and admins of this workspace can do this; your role is member.';

/** The scope lives in the URL (/personal/… or /w/:workspaceId/…); this reads it and the caller's role there. */
export function ScopeProvider({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const workspacesQuery = useWorkspaces();
  const workspaces = useMemo(() => workspacesQuery.data ?? [], [workspacesQuery.data]);
  const workspaceId = workspaceIdInPath(pathname);
  const current = workspaceId ? workspaces.find((w) => w.id === workspaceId) : undefined;

  const scope: Scope = useMemo(() => {
    if (!workspaceId) return { kind: 'personal' };
    // Until the list arrives the role is unknown: assume the least (member) so no control flashes on.
    return { kind: 'workspace', workspaceId, workspaceName: current?.name ?? workspaceId, role: current?.role ?? 'member' };
  }, [workspaceId, current]);

  const setScope = useCallback<ScopeState['setScope']>(
    (next) => {
      const section = sectionInPath(pathname);
      if (next.kind === 'personal') navigate(`/personal/${section === 'raffles' ? 'keys' : section}`);
      else navigate(`/w/${next.workspaceId}/${section}`);
    },
    [pathname, navigate],
  );

  const can = useCallback(
    (action: 'manage' | 'member'): Permission => {
      if (action === 'member' || scope.kind === 'personal') return { allowed: true };
      if (!current) return { allowed: false, reason: workspacesQuery.isLoading ? 'Loading your role…' : 'You are not a member of this workspace.' };
      return current.role === 'owner' || current.role === 'admin' ? { allowed: true } : { allowed: false, reason: MANAGE_REASON };
    },
    [scope.kind, current, workspacesQuery.isLoading],
  );

  const value = useMemo<ScopeState>(
    () => ({
      scope,
      workspaces,
      workspacesLoading: workspacesQuery.isLoading,
      workspacesError: workspacesQuery.error,
      unknownWorkspaceId: workspaceId && workspacesQuery.isSuccess && !current ? workspaceId : null,
      setScope,
      basePath: workspaceId ? `/w/${workspaceId}` : '/personal',
      can,
    }),
    [scope, workspaces, workspacesQuery.isLoading, workspacesQuery.error, workspacesQuery.isSuccess, workspaceId, current, setScope, can],
  );
  return <ScopeContext.Provider value={value}>{children}</ScopeContext.Provider>;
}

export function useScope(): ScopeState {
  const state = useContext(ScopeContext);
  if (!state) throw new Error('useScope needs a ScopeProvider above it (the signed-in layout)');
  return state;
}
