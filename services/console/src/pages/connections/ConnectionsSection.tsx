import type { Connection, ConnectionProvider } from '@raffle/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useManagement } from '../../api/clients.js';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice.js';
import { ConfirmButton } from '../../ui/ConfirmButton.js';
import { DateTime } from '../../ui/DateTime.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { useToast } from '../../ui/toast.js';
import { CONNECTION_PROVIDERS, connectionKeys, PROVIDER_USES } from './connection-providers.js';
import './connections.css';

/**
 * The signed-in user's Discord and X accounts: linking one sends the browser to the provider's
 * consent page, which sends it back to /connections/{provider}/callback; unlinking asks first.
 */
export function ConnectionsSection() {
  const mgmt = useManagement();
  const connections = useQuery({ queryKey: connectionKeys.list, queryFn: () => mgmt.me.connections.list() });
  return (
    <section className="connections" aria-labelledby="connections-title">
      <h2 id="connections-title">Connections</h2>
      <p>Discord and X accounts you linked by signing in to them. Raffles that ask for a Discord role or an X follow check these accounts; nothing is ever posted.</p>
      {connections.error ? (
        <ApiErrorNotice error={connections.error} />
      ) : connections.isPending ? (
        <p aria-live="polite">Loading connections…</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Your linked accounts</caption>
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Account</th>
                <th scope="col">Linked</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {CONNECTION_PROVIDERS.map(({ provider, name }) => (
                <ConnectionRow
                  key={provider}
                  provider={provider}
                  name={name}
                  connection={connections.data.data.find((c) => c.provider === provider) ?? null}
                  offered={connections.data.providers.includes(provider)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function ConnectionRow({ provider, name, connection, offered }: { provider: ConnectionProvider; name: string; connection: Connection | null; offered: boolean }) {
  const mgmt = useManagement();
  const queryClient = useQueryClient();
  const toast = useToast();
  // The consent page is the provider's: the browser leaves the console and comes back to the callback page.
  const link = useMutation({
    mutationFn: () => mgmt.me.connections.start(provider),
    onSuccess: (started) => window.location.assign(started.authorizationUrl),
  });
  const unlink = useMutation({
    mutationFn: () => mgmt.me.connections.unlink(provider),
    onSuccess: () => toast.success(`${name} account unlinked`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: connectionKeys.list }),
  });
  return (
    <tr data-provider={provider}>
      <th scope="row">{name}</th>
      <td>
        {connection ? (
          <>
            <span className="connection-account">{connection.accountName}</span>
            {connection.status === 'revoked' ? <span className="connection-revoked"> (no longer works: link it again)</span> : null}
          </>
        ) : (
          <span className="connection-none">Not linked</span>
        )}
      </td>
      <td>{connection ? <DateTime value={connection.linkedAt} /> : '—'}</td>
      <td>
        <div className="connection-actions">
          {!offered ? (
            <DisabledReason label={`Link ${name}`} reason={`This platform has no ${name} application configured.`} />
          ) : (
            <button type="button" className={connection ? 'button' : 'button button-primary'} onClick={() => link.mutate()} disabled={link.isPending || link.isSuccess}>
              {connection ? `Link another ${name} account` : `Link ${name}`}
            </button>
          )}
          {connection ? (
            <ConfirmButton
              label={`Unlink ${name}`}
              danger
              confirmText={`Unlink ${name} account ${connection.accountName}? Raffles stop counting its ${PROVIDER_USES[provider]} for you, and this platform's access to it is revoked at ${name}.`}
              onConfirm={() => unlink.mutateAsync()}
            />
          ) : null}
        </div>
        {link.error ? <ApiErrorNotice error={link.error} /> : null}
      </td>
    </tr>
  );
}
