import { RaffleApiError } from '@raffle/sdk';
import { useCallback } from 'react';
import { SESSION_EXPIRED_MESSAGE, useSession } from '../auth/session.js';

/**
 * A management call the SDK has no method for (a file download): same origin, the session's
 * Authorization header, and a 401 signs out as useManagement() does. Answers are returned as they
 * came; `failureOf` turns a refusal into the error the SDK would have thrown.
 */
export function useSessionFetch(): (path: string, init?: RequestInit) => Promise<Response> {
  const { token, signOut } = useSession();
  return useCallback(
    async (path, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${token}`);
      const response = await fetch(new URL(path, window.location.origin), { ...init, headers });
      if (response.status === 401) signOut(SESSION_EXPIRED_MESSAGE);
      return response;
    },
    [token, signOut],
  );
}

const MESSAGE_CODE_PREFIX = /^([A-Z][A-Z0-9_]+): /;

/** The error of a refused answer, as the SDK reports management's (its code read from the message's `CODE: ` prefix). */
export async function failureOf(response: Response): Promise<RaffleApiError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's page): the text is the message.
  }
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const message = typeof record.message === 'string' && record.message !== '' ? record.message : text.slice(0, 500) || `HTTP ${response.status}`;
  return new RaffleApiError({
    status: response.status,
    code: MESSAGE_CODE_PREFIX.exec(message)?.[1] ?? null,
    message,
    requestId: typeof record.requestId === 'string' ? record.requestId : response.headers.get('x-request-id'),
    retryAfter: null,
    body,
    headers: response.headers,
  });
}
