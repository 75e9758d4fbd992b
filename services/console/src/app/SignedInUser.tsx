import { useQuery } from '@tanstack/react-query';
import { useManagement } from '../api/clients.js';
import { useSession } from '../auth/session.js';

/**
 * Who is signed in, by name: the token carries only the user id, so the profile is asked of
 * management (`GET /api/dashboard/me`) once per session. Display name, else handle; while it
 * loads, or if it cannot be read, the id stands in (and stays in the title on hover).
 */
export function SignedInUser() {
  const { userId } = useSession();
  const mgmt = useManagement();
  const me = useQuery({ queryKey: ['signed-in-user', userId], staleTime: Infinity, queryFn: () => mgmt.me.get() });
  const name = me.data?.displayName || me.data?.handle || userId;
  return (
    <span className="header-user-name" title={`Signed in as ${name} (${userId})`}>
      <span className="visually-hidden">Signed in as </span>
      {name}
    </span>
  );
}
