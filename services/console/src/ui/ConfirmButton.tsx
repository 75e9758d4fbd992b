import { useId, useRef, useState } from 'react';
import { ApiErrorNotice } from './ApiErrorNotice.js';
import { DisabledReason } from './DisabledReason.js';

type Props = {
  label: string;
  confirmText: string;
  onConfirm: () => Promise<unknown>;
  danger?: boolean;
  /** When set the button is disabled and this says why. */
  disabledReason?: string;
  /** The confirm button's label in the dialog; `label` otherwise. */
  confirmLabel?: string;
};

/** A button that asks first, in a native modal <dialog> (focus trapped, Escape cancels), and shows a failure in place. */
export function ConfirmButton({ label, confirmText, onConfirm, danger, disabledReason, confirmLabel }: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const titleId = useId();

  if (disabledReason) return <DisabledReason label={label} reason={disabledReason} />;

  const close = () => {
    dialogRef.current?.close();
    setError(null);
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      dialogRef.current?.close();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button type="button" className={danger ? 'button button-danger' : 'button'} onClick={() => dialogRef.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialogRef} className="dialog" aria-labelledby={titleId} onClose={() => setError(null)}>
        <h2 id={titleId} className="dialog-title">
          {label}
        </h2>
        <p>{confirmText}</p>
        <ApiErrorNotice error={error} />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={close} disabled={busy}>
            Cancel
          </button>
          <button type="button" className={danger ? 'button button-danger' : 'button button-primary'} onClick={confirm} disabled={busy}>
            {busy ? 'Working…' : (confirmLabel ?? label)}
          </button>
        </div>
      </dialog>
    </>
  );
}
