import type { RaffleWin, UpdateWinDeliveryParams } from '@raffle/sdk';
import { useState, type FormEvent } from 'react';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice';
import { humanize, SETTABLE_DELIVERY_STATUSES } from './raffle-rules';

type Props = { win: RaffleWin; onSave: (params: UpdateWinDeliveryParams) => Promise<unknown> };

/** A live win's delivery status and note. `delivered` is final, so it is then shown as text only. */
export function WinDeliveryControl({ win, onSave }: Props) {
  const [status, setStatus] = useState<string>(win.deliveryStatus === 'not_applicable' ? 'pending' : win.deliveryStatus);
  const [note, setNote] = useState(win.deliveryNote ?? '');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (win.deliveryStatus === 'delivered') {
    return (
      <>
        delivered{win.deliveryNote ? <small className="form-hint"> {win.deliveryNote}</small> : null}
      </>
    );
  }
  const id = (name: string) => `delivery-${win.id}-${name}`;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      await onSave({ deliveryStatus: status as UpdateWinDeliveryParams['deliveryStatus'], deliveryNote: note.trim() === '' ? null : note.trim() });
    } catch (caught) {
      setError(caught);
    } finally {
      setSaving(false);
    }
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label={`Delivery of position ${win.position}`}>
      <label htmlFor={id('status')} className="visually-hidden">
        Delivery status of position {win.position}
      </label>
      <select id={id('status')} value={status} onChange={(e) => setStatus(e.target.value)}>
        {SETTABLE_DELIVERY_STATUSES.map((s) => (
          <option key={s} value={s}>
            {humanize(s)}
          </option>
        ))}
      </select>
      <label htmlFor={id('note')} className="visually-hidden">
        Delivery note of position {win.position}
      </label>
      <input id={id('note')} placeholder="Note (optional)" maxLength={1000} value={note} onChange={(e) => setNote(e.target.value)} />
      <button type="submit" className="button" disabled={saving}>
        {saving ? 'Saving…' : 'Save delivery'}
      </button>
      <ApiErrorNotice error={error} />
    </form>
  );
}
