import type { CompleteConnectionParams, ConnectionProvider } from '@raffle/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { isApiError, useManagement } from '../../api/clients.js';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice.js';
import { connectionKeys, providerNameOf } from './connection-providers.js';
import './connections.css';

/** Where the signed-in user's wallets and connections are. */
const CONNECTIONS_PAGE = '/personal/wallets';

/**
 * Where Discord or X sends the browser back after the consent page, with `code` and `state` (or
 * `error`). They are read once and dropped from the address bar (and so from the history), then
 * sent to management, which completes the link; the page shows the linked account or why not.
 */
export default function ConnectionCallbackPage() {
  const { provider = '' } = useParams();
  const name = providerNameOf(provider);
  const [body] = useState(callbackBodyOf);
  useEffect(() => window.history.replaceState(null, '', window.location.pathname), []);

  return (
    <section className="connection-callback" aria-labelledby="connection-callback-title">
      <h1 id="connection-callback-title">{name ? `Linking ${name}` : 'Unknown provider'}</h1>
      {!name ? (
        <p>There is no provider “{provider}” to link.</p>
      ) : !body ? (
        <p>This page is where {name} sends you back after you sign in there; it was opened without what {name} sends.</p>
      ) : (
        <Completion provider={provider as ConnectionProvider} name={name} body={body} />
      )}
      <p>
        <Link to={CONNECTIONS_PAGE}>Back to your wallets and connections</Link>
      </p>
    </section>
  );
}

function Completion({ provider, name, body }: { provider: ConnectionProvider; name: string; body: CompleteConnectionParams }) {
  const mgmt = useManagement();
  const queryClient = useQueryClient();
  const complete = useMutation({
    mutationFn: () => mgmt.me.connections.complete(provider, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: connectionKeys.list }),
  });
  // Once: a state completes once, and a second send would be refused as used.
  const sent = useRef(false);
  const { mutate } = complete;
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    mutate();
  }, [mutate]);

  if (complete.isSuccess) {
    return (
      <p role="status">
        Your {name} account <strong className="connection-account">{complete.data.accountName}</strong> is linked.
      </p>
    );
  }
  if (complete.error) {
    // Only a provider that did not answer keeps the flow: the same callback may be sent again.
    const retryable = isApiError(complete.error) && complete.error.status === 503;
    return (
      <>
        <ApiErrorNotice error={complete.error} />
        {retryable ? (
          <button type="button" className="button button-primary" onClick={() => complete.mutate()}>
            Try again
          </button>
        ) : (
          <p>Nothing was linked. Start again from your connections.</p>
        )}
      </>
    );
  }
  return <p aria-live="polite">Linking your {name} account…</p>;
}

/** The callback's parameters as management takes them; null when the provider sent neither a code nor an error. */
function callbackBodyOf(): CompleteConnectionParams | null {
  const query = new URLSearchParams(window.location.search);
  const state = query.get('state');
  const code = query.get('code');
  const error = query.get('error');
  if (!state || (!code && !error)) return null;
  if (code) return { state, code };
  const errorDescription = query.get('error_description');
  return { state, error: error!, ...(errorDescription ? { errorDescription } : {}) };
}
