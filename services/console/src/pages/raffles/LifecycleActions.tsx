import type { Raffle } from '@raffle/sdk';
import { useState } from 'react';
import { useManagement } from '../../api/clients';
import type { Permission } from '../../scope/scope';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { DrawWaitNotice } from './DrawWaitNotice';
import { ACTION_LABELS, actionsAllowedIn, type LifecycleAction } from './raffle-rules';
import { useDrawWhenDue } from './use-draw-when-due';
import { useRaffleChange } from './use-raffle-change';

type Props = { raffle: Raffle; workspaceId: string; manage: Permission };

const parseEntryIds = (text: string) => text.split(/[\s,]+/).filter((id) => id !== '');

/**
 * The lifecycle actions the state machine allows from the current status, each behind a
 * confirmation. Members see none: they cannot use them, and a row of disabled buttons would
 * only say so six times.
 */
export function LifecycleActions({ raffle, workspaceId, manage }: Props) {
  const mgmt = useManagement();
  const change = useRaffleChange(workspaceId, raffle.id);
  const [selection, setSelection] = useState('');
  const actions = actionsAllowedIn(raffle.status);
  const raffles = mgmt.workspaces.raffles;
  const isApplication = raffle.mechanic === 'application';
  // One request per attempt: a 409 saying the beacon round is not out yet becomes a visible wait.
  const drawing = useDrawWhenDue(raffle, (signal) =>
    change(() => raffles.draw(workspaceId, raffle.id, isApplication ? { entryIds: parseEntryIds(selection) } : {}, { maxRetries: 0, signal }), ACTION_LABELS.draw.done),
  );

  if (!manage.allowed) {
    return (
      <section aria-labelledby="lifecycle-heading">
        <h2 id="lifecycle-heading">Lifecycle</h2>
        <p className="form-hint">{manage.reason ?? 'Only owners and admins move a raffle through its lifecycle.'}</p>
      </section>
    );
  }

  const callOf = (action: Exclude<LifecycleAction, 'draw'>): Promise<Raffle> => {
    switch (action) {
      case 'publish':
        return raffles.publish(workspaceId, raffle.id);
      case 'open':
        return raffles.open(workspaceId, raffle.id);
      case 'close':
        return raffles.close(workspaceId, raffle.id);
      case 'finalize':
        return raffles.finalize(workspaceId, raffle.id);
      case 'cancel':
        return raffles.cancel(workspaceId, raffle.id);
    }
  };
  const run = (action: LifecycleAction): Promise<unknown> =>
    action === 'draw' ? drawing.drawNow() : change(() => callOf(action), ACTION_LABELS[action].done);

  return (
    <section aria-labelledby="lifecycle-heading">
      <h2 id="lifecycle-heading">Lifecycle</h2>
      {actions.length === 0 ? (
        <p className="form-hint">A {raffle.status} raffle takes no further lifecycle action.</p>
      ) : (
        <>
          {actions.includes('draw') && isApplication ? (
            <div className="form-field">
              <label className="form-label" htmlFor="draw-selection">Chosen entry ids, in position order</label>
              <textarea id="draw-selection" rows={3} value={selection} aria-describedby="draw-selection-hint" onChange={(e) => setSelection(e.target.value)} />
              <small className="form-hint" id="draw-selection-hint">
                An application raffle's winners are the entries you name (one per line or separated by commas); copy ids from the entries below.
              </small>
            </div>
          ) : null}
          {raffle.status === 'draft' && raffle.mechanic === 'raffle' ? (
            <p className="form-hint">Publishing generates the draw seed and makes its commitment public; the seed is revealed at the draw so anyone can verify it.</p>
          ) : null}
          {drawing.wait ? <DrawWaitNotice wait={drawing.wait} sending={drawing.sending} onCancel={drawing.cancel} /> : null}
          {drawing.error ? <ApiErrorNotice error={drawing.error} /> : null}
          <div className="actions">
            {actions.filter((action) => !(action === 'draw' && drawing.wait)).map((action) => {
              const label = ACTION_LABELS[action];
              const needsSelection = action === 'draw' && isApplication && parseEntryIds(selection).length === 0;
              return (
                <ConfirmButton
                  key={action}
                  label={label.label}
                  confirmText={label.confirm}
                  danger={label.danger}
                  disabledReason={needsSelection ? 'Name the chosen entry ids first.' : undefined}
                  onConfirm={() => run(action)}
                />
              );
            })}
          </div>
        </>
      )}
    </section>
  );
}
