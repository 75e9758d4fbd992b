import { RaffleApiError, RaffleClient, RaffleManagementClient } from '@raffle/sdk';
import { useMemo } from 'react';
import { SESSION_EXPIRED_MESSAGE, useSession } from '../auth/session.js';

/**
 * Wraps fetch so that a 401 from any management call signs out: the token expired or was
 * revoked, and every further call would fail the same way.
 */
function signingOutFetch(onUnauthorized: () => void): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 401) onUnauthorized();
    return response;
  };
}

/** The management API, same origin (the console server proxies it), as the signed-in user. */
export function useManagement(): RaffleManagementClient {
  const { token, signOut } = useSession();
  return useMemo(
    () =>
      new RaffleManagementClient({
        token,
        baseUrl: window.location.origin,
        fetch: signingOutFetch(() => signOut(SESSION_EXPIRED_MESSAGE)),
      }),
    [token, signOut],
  );
}

/** The data plane, same origin, with an API key; null until there is one (the SDK needs a key). */
export function useDataPlane(apiKey?: string): RaffleClient | null {
  return useMemo(() => (apiKey ? new RaffleClient({ apiKey, baseUrl: window.location.origin }) : null), [apiKey]);
}

export const isApiError = (error: unknown): error is RaffleApiError => error instanceof RaffleApiError;
