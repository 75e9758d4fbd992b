import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKey } from '@raffle/sdk';
import { ConfirmButton } from '../../ui/ConfirmButton.js';
import { DateTime } from '../../ui/DateTime.js';
import { useToast } from '../../ui/toast.js';
import { isActive, keyStatus } from './key-status.js';
import type { KeyCalls } from './use-key-calls.js';

type Props = { calls: KeyCalls; keys: ApiKey[]; canManage: boolean; onRoll: (key: ApiKey) => void };

/**
 * The keys as a table inside a labelled, focusable region that scrolls sideways on a narrow
 * screen, so every column stays reachable by keyboard at 390 px. The actions column stays pinned
 * at the region's right edge: Roll and Revoke are in view without scrolling.
 */
export function KeyTable({ calls, keys, canManage, onRoll }: Props) {
  return (
    <div className="table-wrap keys-table-scroll" role="region" aria-label="API key list" tabIndex={0}>
      <table className="keys-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">Status</th>
            {canManage && (
              <th scope="col" className="keys-actions-cell">
                Actions
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <KeyRow key={key.id} calls={calls} apiKey={key} canManage={canManage} onRoll={onRoll} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function KeyRow({ calls, apiKey, canManage, onRoll }: { calls: KeyCalls; apiKey: ApiKey; canManage: boolean; onRoll: (key: ApiKey) => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const status = keyStatus(apiKey);
  const revoke = useMutation({
    mutationFn: () => calls.revoke(apiKey.id),
    onSuccess: () => toast.success(`Key "${apiKey.name}" revoked`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: calls.listKey }),
  });

  return (
    <tr data-key-id={apiKey.id}>
      <th scope="row">{apiKey.name}</th>
      <td>
        <code>
          {apiKey.prefix}…{apiKey.lastFour}
        </code>
      </td>
      <td>
        <ul className="keys-scope-list">
          {apiKey.scopes.map((scope) => (
            <li key={scope}>
              <code>{scope}</code>
            </li>
          ))}
        </ul>
      </td>
      <td>
        <DateTime value={apiKey.createdAt} />
      </td>
      <td>{apiKey.lastUsedAt ? <DateTime value={apiKey.lastUsedAt} /> : 'Never'}</td>
      <td>{apiKey.expiresAt ? <DateTime value={apiKey.expiresAt} /> : 'Never'}</td>
      <td>
        <span className={`keys-status keys-status-${status}`}>{status}</span>
      </td>
      {canManage && (
        <td className="keys-actions-cell">
          {isActive(apiKey) ? (
            // The group names the key, so "Roll" and "Revoke" are unambiguous to a screen reader.
            <div className="keys-row-actions" role="group" aria-label={`Actions for key ${apiKey.name}`}>
              <button type="button" className="button" onClick={() => onRoll(apiKey)}>
                Roll
              </button>
              <ConfirmButton
                label="Revoke"
                confirmText={`Revoke "${apiKey.name}" (${apiKey.prefix}…${apiKey.lastFour})? Anything using it stops working at once. This cannot be undone.`}
                onConfirm={() => revoke.mutateAsync()}
                confirmLabel="Revoke"
                danger
              />
            </div>
          ) : (
            <span className="keys-muted">None ({status})</span>
          )}
        </td>
      )}
    </tr>
  );
}
