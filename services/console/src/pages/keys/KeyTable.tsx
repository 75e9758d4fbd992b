import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKey } from '@raffle/sdk';
import { ConfirmButton } from '../../ui/ConfirmButton.js';
import { DateTime } from '../../ui/DateTime.js';
import { useToast } from '../../ui/toast.js';
import { isActive, keyStatus } from './key-status.js';
import type { KeyCalls } from './use-key-calls.js';

const COLUMNS = ['Name', 'Key', 'Scopes', 'Created', 'Last used', 'Expires', 'Status'] as const;

/**
 * A cell's column name, shown only when the rows are stacked as cards. Hidden from assistive
 * technology, which announces the column header itself.
 */
const CellLabel = ({ column }: { column: string }) => (
  <span className="keys-cell-label" aria-hidden="true">
    {column}
  </span>
);

type Props = { calls: KeyCalls; keys: ApiKey[]; canManage: boolean; onRoll: (key: ApiKey) => void };

/**
 * The keys as a table inside a labelled, focusable region. Where the table fits it is a table (on a
 * middling screen it scrolls sideways, its actions column pinned at the region's right edge). On a
 * narrow screen (keys.css) each key is a card: every cell stacked, each with its column's name, so
 * no column is out of sight at 390 px. The explicit roles keep the table a table to assistive
 * technology when its CSS display changes (Chromium drops the implicit ones then).
 */
export function KeyTable({ calls, keys, canManage, onRoll }: Props) {
  return (
    <div className="table-wrap keys-table-scroll" role="region" aria-label="API key list" tabIndex={0}>
      <table className="keys-table" role="table">
        <thead role="rowgroup">
          <tr role="row">
            {COLUMNS.map((column) => (
              <th key={column} scope="col" role="columnheader">
                {column}
              </th>
            ))}
            {canManage && (
              <th scope="col" role="columnheader" className="keys-actions-cell">
                Actions
              </th>
            )}
          </tr>
        </thead>
        <tbody role="rowgroup">
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
    <tr role="row" data-key-id={apiKey.id}>
      <th scope="row" role="rowheader">
        <CellLabel column="Name" />
        {apiKey.name}
      </th>
      <td role="cell">
        <CellLabel column="Key" />
        <code>
          {apiKey.prefix}…{apiKey.lastFour}
        </code>
      </td>
      <td role="cell">
        <CellLabel column="Scopes" />
        <ul className="keys-scope-list">
          {apiKey.scopes.map((scope) => (
            <li key={scope}>
              <code>{scope}</code>
            </li>
          ))}
        </ul>
      </td>
      <td role="cell">
        <CellLabel column="Created" />
        <DateTime value={apiKey.createdAt} />
      </td>
      <td role="cell">
        <CellLabel column="Last used" />
        {apiKey.lastUsedAt ? <DateTime value={apiKey.lastUsedAt} /> : 'Never'}
      </td>
      <td role="cell">
        <CellLabel column="Expires" />
        {apiKey.expiresAt ? <DateTime value={apiKey.expiresAt} /> : 'Never'}
      </td>
      <td role="cell">
        <CellLabel column="Status" />
        <span className={`keys-status keys-status-${status}`}>{status}</span>
      </td>
      {canManage && (
        <td role="cell" className="keys-actions-cell">
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
