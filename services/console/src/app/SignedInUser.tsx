import type { WorkspaceMember } from '@raffle/sdk';
import { useQuery } from '@tanstack/react-query';
import { useManagement } from '../api/clients.js';
import { useSession } from '../auth/session.js';
import { useScope } from '../scope/scope.js';

/**
 * Who is signed in, by name. The token carries only the user id, and the management API has no
 * route for the caller's own profile; a workspace's member list (which any member may read) has
 * the caller's display name and handle. Any of the caller's workspaces will do, so the first one
 * is asked, once per session. Without a workspace, or while it loads, the id stands in.
 */
export function SignedInUser() {
  const { userId } = useSession();
  const { workspaces } = useScope();
  const mgmt = useManagement();
  const workspaceId = workspaces[0]?.id;
  const me = useQuery({
    queryKey: ['signed-in-user', userId, workspaceId ?? null],
    enabled: workspaceId !== undefined,
    staleTime: Infinity,
    queryFn: async (): Promise<WorkspaceMember | null> => {
      for await (const member of mgmt.workspaces.members.list(workspaceId!, { limit: 100 }) as AsyncIterable<WorkspaceMember>) {
        if (member.userId === userId) return member;
      }
      return null;
    },
  });
  const name = me.data?.displayName || me.data?.handle || userId;
  return (
    <span className="header-user-name" title={`Signed in as ${name} (${userId})`}>
      <span className="visually-hidden">Signed in as </span>
      {name}
    </span>
  );
}
