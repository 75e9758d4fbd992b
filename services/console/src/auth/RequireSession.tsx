import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSessionState } from './session.js';

/** Pages behind it see a session; without one the visitor goes to /sign-in (and comes back after). */
export function RequireSession({ children }: { children: ReactNode }) {
  const { session } = useSessionState();
  const location = useLocation();
  if (!session) return <Navigate to="/sign-in" replace state={{ returnTo: location.pathname + location.search }} />;
  return <>{children}</>;
}
