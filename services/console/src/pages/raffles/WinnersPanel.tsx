import type { Raffle, RaffleWin } from '@raffle/sdk';
import { useState } from 'react';
import { useManagement } from '../../api/clients';
import type { Permission } from '../../scope/scope';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { EmptyState } from '../../ui/EmptyState';
import { Pager } from '../../ui/Pager';
import { usePagedList } from '../../ui/usePagedList';
import { winsKey } from './raffle-keys';
import { humanize } from './raffle-rules';
import { StatusBadge } from './StatusBadge';
import { useRaffleChange } from './use-raffle-change';
import { WinDeliveryControl } from './WinDeliveryControl';
import { ScrollTable } from './ScrollTable';

type Props = { raffle: Raffle; workspaceId: string; manage: Permission };

const isLive = (win: RaffleWin) => win.status === 'selected' || win.status === 'finalized';

/** Every win by position: who, its status and delivery; disqualify, reroll and record delivery. */
export function WinnersPanel({ raffle, workspaceId, manage }: Props) {
  const mgmt = useManagement();
  const change = useRaffleChange(workspaceId, raffle.id);
  const wins = mgmt.workspaces.raffles.wins;
  const [reason, setReason] = useState('Disqualified in review');
  const [rerollEntry, setRerollEntry] = useState('');
  const list = usePagedList(winsKey(workspaceId, raffle.id), (cursor?: string) => wins.list(workspaceId, raffle.id, { limit: 50 }).page({ cursor }));
  const canReroll = raffle.status === 'drawn' || raffle.status === 'finalized';
  const isApplication = raffle.mechanic === 'application';

  const actionsFor = (win: RaffleWin) => {
    if (isLive(win)) {
      return (
        <ConfirmButton
          label="Disqualify"
          danger
          confirmText={`Disqualify the win at position ${win.position} (${win.identitySnapshot.handle})? Reason: "${reason}". The position can then be rerolled.`}
          disabledReason={reason.trim() === '' ? 'Give a reason first.' : undefined}
          onConfirm={() => change(() => wins.disqualify(workspaceId, raffle.id, win.id, { reason: reason.trim() }), `Win at position ${win.position} disqualified`)}
        />
      );
    }
    if (win.status === 'disqualified' && canReroll) {
      const missingEntry = isApplication && rerollEntry.trim() === '';
      return (
        <ConfirmButton
          label="Reroll"
          confirmText={
            isApplication
              ? `Give position ${win.position} to entry ${rerollEntry.trim()}?`
              : `Give position ${win.position} to the next eligible entry in the frozen draw order?`
          }
          disabledReason={missingEntry ? 'Name the replacement entry id first.' : undefined}
          onConfirm={() =>
            change(() => wins.reroll(workspaceId, raffle.id, win.id, isApplication ? { entryId: rerollEntry.trim() } : {}), `Position ${win.position} rerolled`)
          }
        />
      );
    }
    return '—';
  };

  return (
    <section aria-labelledby="winners-heading">
      <h2 id="winners-heading">Winners</h2>
      {manage.allowed ? (
        <div className="filters">
          <div className="form-field">
            <label className="form-label" htmlFor="win-disqualify-reason">Reason recorded when disqualifying a win</label>
            <input id="win-disqualify-reason" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
          </div>
          {isApplication && canReroll ? (
            <div className="form-field">
              <label className="form-label" htmlFor="reroll-entry">Replacement entry id (application reroll)</label>
              <input id="reroll-entry" maxLength={64} value={rerollEntry} onChange={(e) => setRerollEntry(e.target.value)} />
            </div>
          ) : null}
        </div>
      ) : null}
      {list.error ? <ApiErrorNotice error={list.error} /> : null}
      {list.isLoading ? <p role="status">Loading winners…</p> : null}
      {!list.isLoading && !list.error && list.items.length === 0 ? (
        <EmptyState title="No winners yet">
          <p>{raffle.mechanic === 'fcfs' ? 'An FCFS raffle hands out spots as entries arrive.' : 'Winners are selected when the raffle is drawn, after it closes.'}</p>
        </EmptyState>
      ) : null}
      {list.items.length > 0 ? (
        <ScrollTable label={`Winners of ${raffle.title}`}>
            <thead>
              <tr>
                <th scope="col">Position</th>
                <th scope="col">Winner</th>
                <th scope="col">Status</th>
                <th scope="col">Delivery</th>
                {manage.allowed ? <th scope="col">Action</th> : null}
              </tr>
            </thead>
            <tbody>
              {list.items.map((win) => (
                <tr key={win.id}>
                  <td>{win.position}</td>
                  <td>
                    {win.identitySnapshot.displayName ?? win.identitySnapshot.handle}
                    <br />
                    <small>
                      @{win.identitySnapshot.handle} · entry <span className="mono">{win.entryId}</span> · {win.source}
                    </small>
                  </td>
                  <td>
                    <StatusBadge status={win.status} />
                  </td>
                  <td>
                    {manage.allowed && isLive(win) ? (
                      <WinDeliveryControl win={win} onSave={(params) => change(() => wins.updateDelivery(workspaceId, raffle.id, win.id, params), `Delivery of position ${win.position} recorded`)} />
                    ) : (
                      <>
                        {humanize(win.deliveryStatus)}
                        {win.deliveryNote ? <small className="form-hint"> {win.deliveryNote}</small> : null}
                      </>
                    )}
                  </td>
                  {manage.allowed ? <td>{actionsFor(win)}</td> : null}
                </tr>
              ))}
            </tbody>
          </ScrollTable>
      ) : null}
      <Pager list={list} label="Winners pages" />
    </section>
  );
}
