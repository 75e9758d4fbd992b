import { useId } from 'react';

/** A control the user may not use, disabled, with the reason beside it (not only in a tooltip). */
export function DisabledReason({ label, reason }: { label: string; reason: string }) {
  const reasonId = useId();
  return (
    <span className="disabled-control">
      <button type="button" className="button" disabled aria-describedby={reasonId}>
        {label}
      </button>
      <span id={reasonId} className="disabled-reason">
        {reason}
      </span>
    </span>
  );
}
