import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { decodeTokenClaims, isExpired } from './token-claims.js';

/** sessionStorage, not localStorage: the token dies with the tab and is never shared between tabs. */
const STORAGE_KEY = 'raffle-console.session-token';

export const SESSION_EXPIRED_MESSAGE = 'Your session expired. Sign in again.';

export type Session = { token: string; userId: string; expiresAt: number | null; signOut(reason?: string): void };

type SessionState = {
  session: Session | null;
  /** Stores the token and returns null, or returns why it cannot be used. */
  signIn(token: string): string | null;
  signOut(reason?: string): void;
  /** Why the user was signed out (expired, signed out), for the sign-in page; cleared on sign-in. */
  notice: string | null;
};

const SessionContext = createContext<SessionState | null>(null);

function readStoredToken(): string | null {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Signing-in state for the whole app. Must sit inside the router: signing out navigates to /sign-in. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const [token, setToken] = useState<string | null>(readStoredToken);
  // Kept here, not in the router's location state: the redirect of the page being left would replace that.
  const [notice, setNotice] = useState<string | null>(null);
  const claims = useMemo(() => (token ? decodeTokenClaims(token) : null), [token]);

  const signOut = useCallback(
    (reason?: string) => {
      window.sessionStorage.removeItem(STORAGE_KEY);
      setToken(null);
      setNotice(reason ?? null);
      navigate('/sign-in', { replace: true });
    },
    [navigate],
  );

  const signIn = useCallback((candidate: string): string | null => {
    const trimmed = candidate.trim();
    const parsed = decodeTokenClaims(trimmed);
    if (!parsed) return 'That is not a session token (a JWT with a subject). Copy the whole token and try again.';
    if (isExpired(parsed)) return SESSION_EXPIRED_MESSAGE;
    window.sessionStorage.setItem(STORAGE_KEY, trimmed);
    setToken(trimmed);
    setNotice(null);
    return null;
  }, []);

  // A stored token that cannot be decoded is dropped; one that expires while the tab is open signs out then.
  useEffect(() => {
    if (!token) return;
    if (!claims) return signOut('Your session token was not valid. Sign in again.');
    if (claims.exp === null) return;
    const remainingMs = claims.exp * 1000 - Date.now();
    if (remainingMs <= 0) return signOut(SESSION_EXPIRED_MESSAGE);
    // setTimeout holds at most ~24.8 days; a token longer-lived than that is checked again on the next load.
    const timer = window.setTimeout(() => signOut(SESSION_EXPIRED_MESSAGE), Math.min(remainingMs, 2 ** 31 - 1));
    return () => window.clearTimeout(timer);
  }, [token, claims, signOut]);

  const value = useMemo<SessionState>(() => {
    const session =
      token && claims && !isExpired(claims) ? { token, userId: claims.sub, expiresAt: claims.exp, signOut } : null;
    return { session, signIn, signOut, notice };
  }, [token, claims, signIn, signOut, notice]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSessionState(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSessionState needs a SessionProvider above it');
  return state;
}

/** The signed-in session; only for pages behind RequireSession. */
export function useSession(): Session {
  const { session } = useSessionState();
  if (!session) throw new Error('useSession is only for pages behind RequireSession');
  return session;
}
