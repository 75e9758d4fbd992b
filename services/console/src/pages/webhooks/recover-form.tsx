import { useState, type FormEvent } from 'react';
import { FormField } from '../../ui/FormField.js';

type Props = {
  /** Resolves when done; failures are reported by the caller. */
  onRecover(sinceIso: string): Promise<unknown>;
  disabledReason?: string | undefined;
};

const RECOVERY_WINDOW_DAYS = 30;
const DAY_MS = 24 * 3600_000;

/** `YYYY-MM-DDTHH:mm` in local time: what a datetime-local input holds. */
export function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * Sends every failed delivery since a time again (after an outage on the receiving side, say).
 * The input is in the browser's local time; the API takes an instant, so it goes as ISO (UTC).
 */
export function RecoverForm({ onRecover, disabledReason }: Props) {
  const [since, setSince] = useState(() => localInputValue(new Date(Date.now() - DAY_MS)));
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const instant = new Date(since);
    if (Number.isNaN(instant.getTime())) return setProblem('Enter a date and time.');
    if (instant.getTime() > Date.now()) return setProblem('Choose a time in the past.');
    setProblem(null);
    setBusy(true);
    try {
      await onRecover(instant.toISOString());
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="recover-title">
      <h2 id="recover-title">Recover failed deliveries</h2>
      <form onSubmit={submit}>
        <FormField
          label="Failed since (your local time)"
          hint={`Every delivery that failed since then is sent again now; at most ${RECOVERY_WINDOW_DAYS} days back.`}
          error={problem}
        >
          <input
            type="datetime-local"
            name="since"
            required
            value={since}
            min={localInputValue(new Date(Date.now() - RECOVERY_WINDOW_DAYS * DAY_MS))}
            onChange={(e) => setSince(e.target.value)}
          />
        </FormField>
        <div className="wh-actions">
          <button type="submit" className="button" disabled={busy || disabledReason !== undefined} aria-describedby={disabledReason ? 'recover-disabled-reason' : undefined}>
            {busy ? 'Recovering…' : 'Recover failed deliveries'}
          </button>
          {disabledReason ? (
            <span id="recover-disabled-reason" className="disabled-reason">
              {disabledReason}
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}
