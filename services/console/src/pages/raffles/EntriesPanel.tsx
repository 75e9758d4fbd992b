import type { Raffle, RaffleEntry } from '@raffle/sdk';
import { useState } from 'react';
import { useManagement } from '../../api/clients';
import type { Permission } from '../../scope/scope';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { DateTime } from '../../ui/DateTime';
import { EmptyState } from '../../ui/EmptyState';
import { Pager } from '../../ui/Pager';
import { usePagedList } from '../../ui/usePagedList';
import { entriesKey } from './raffle-keys';
import { ENTRY_STATUSES, humanize } from './raffle-rules';
import { StatusBadge } from './StatusBadge';
import { useRaffleChange } from './use-raffle-change';
import { ScrollTable } from './ScrollTable';
import { EntryRequirementResults } from './EntryRequirementResults';

type Props = { raffle: Raffle; workspaceId: string; manage: Permission };

const DISQUALIFIABLE = new Set(['pending', 'valid', 'invalid']);

/** Each signal an entry shares with others, as the list names it. */
const SHARED_SIGNALS = [
  ['walletReuse', 'wallet'],
  ['ipReuse', 'IP'],
  ['discordReuse', 'Discord account'],
  ['xReuse', 'X account'],
] as const;

function DuplicateFlags({ entry }: { entry: RaffleEntry }) {
  const shared = SHARED_SIGNALS.map(([key, name]) => [name, entry.duplicateFlags[key]?.length ?? 0] as const).filter(([, count]) => count > 0);
  if (shared.length === 0) return <>none</>;
  return (
    <ul className="plain">
      {shared.map(([name, count]) => (
        <li key={name}>
          {name} shared with {count}
        </li>
      ))}
    </ul>
  );
}

/** The raffle's entries in arrival order, filtered by status on the server, with disqualification. */
export function EntriesPanel({ raffle, workspaceId, manage }: Props) {
  const mgmt = useManagement();
  const change = useRaffleChange(workspaceId, raffle.id);
  const [status, setStatus] = useState('all');
  const [reason, setReason] = useState('Disqualified by the team');
  // Owners and admins see why each entry passed or failed; plain members see the list only.
  const showResults = manage.allowed && raffle.requirements.length > 0;
  const list = usePagedList(entriesKey(workspaceId, raffle.id, status), (cursor?: string) =>
    mgmt.workspaces.raffles.entries.list(workspaceId, raffle.id, status === 'all' ? { limit: 50 } : { limit: 50, status: status as RaffleEntry['status'] }).page({ cursor }),
  );

  return (
    <section aria-labelledby="entries-heading">
      <h2 id="entries-heading">Entries</h2>
      <div className="filters">
        <div className="form-field">
          <label className="form-label" htmlFor="entry-status-filter">Entry status</label>
          <select id="entry-status-filter" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="all">All</option>
            {ENTRY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {humanize(s)}
              </option>
            ))}
          </select>
        </div>
        {manage.allowed ? (
          <div className="form-field">
            <label className="form-label" htmlFor="entry-disqualify-reason">Reason recorded when disqualifying</label>
            <input id="entry-disqualify-reason" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
          </div>
        ) : null}
      </div>
      {list.error ? <ApiErrorNotice error={list.error} /> : null}
      {list.isLoading ? <p role="status">Loading entries…</p> : null}
      {!list.isLoading && !list.error && list.items.length === 0 ? (
        <EmptyState title={status === 'all' ? 'No entries yet' : `No ${humanize(status)} entries`}>
          <p>{raffle.status === 'draft' || raffle.status === 'scheduled' ? 'Entries arrive once the raffle is open.' : 'Nothing to show in this filter.'}</p>
        </EmptyState>
      ) : null}
      {list.items.length > 0 ? (
        <ScrollTable label={`Entries of ${raffle.title}`}>
            <thead>
              <tr>
                <th scope="col">Entry</th>
                <th scope="col">Status</th>
                <th scope="col">Weight</th>
                <th scope="col">Source</th>
                <th scope="col">Duplicate flags</th>
                {showResults ? <th scope="col">Requirements</th> : null}
                <th scope="col">Entered</th>
                {manage.allowed ? <th scope="col">Action</th> : null}
              </tr>
            </thead>
            <tbody>
              {list.items.map((entry) => (
                <tr key={entry.id}>
                  <td>
                    <span className="mono">{entry.id}</span>
                    <br />
                    <small>user <span className="mono">{entry.userId}</span></small>
                  </td>
                  <td>
                    <StatusBadge status={entry.status} />
                    {entry.statusReason ? <small className="form-hint"> {entry.statusReason}</small> : null}
                  </td>
                  <td>{entry.entryWeight}</td>
                  <td>{entry.source}</td>
                  <td>
                    <DuplicateFlags entry={entry} />
                  </td>
                  {showResults ? (
                    <td>
                      <EntryRequirementResults workspaceId={workspaceId} raffleId={raffle.id} entryId={entry.id} />
                    </td>
                  ) : null}
                  <td>
                    <DateTime value={entry.createdAt} />
                  </td>
                  {manage.allowed ? (
                    <td>
                      {DISQUALIFIABLE.has(entry.status) ? (
                        <ConfirmButton
                          label="Disqualify"
                          danger
                          confirmText={`Disqualify entry ${entry.id}? Any win it holds is disqualified too. Reason: "${reason}".`}
                          disabledReason={reason.trim() === '' ? 'Give a reason first.' : undefined}
                          onConfirm={() => change(() => mgmt.workspaces.raffles.entries.disqualify(workspaceId, raffle.id, entry.id, { reason: reason.trim() }), 'Entry disqualified')}
                        />
                      ) : (
                        '—'
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </ScrollTable>
      ) : null}
      <Pager list={list} label="Entries pages" />
    </section>
  );
}
