import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal native <dialog> that is open while mounted: the browser traps focus, Escape closes it
 * and focus returns to the opener. Unmounting it is the only way to close, so a secret shown
 * inside is dropped from memory the moment the dialog goes.
 */
export function KeyDialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  return (
    <dialog
      ref={ref}
      className="dialog keys-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
