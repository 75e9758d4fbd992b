import { useId } from 'react';
import { CopyButton } from './CopyButton.js';

/** A secret the API returns only once: shown in full with a copy button and a warning that it will not be shown again. */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  const labelId = useId();
  return (
    <section className="secret-once" aria-labelledby={labelId}>
      <h3 id={labelId} className="secret-once-label">
        {label}
      </h3>
      <p className="secret-once-warning" role="note">
        Copy it now: it is shown only this once and cannot be retrieved later.
      </p>
      <div className="secret-once-row">
        <code className="secret-once-value" data-testid="secret-value">
          {secret}
        </code>
        <CopyButton text={secret} />
      </div>
    </section>
  );
}
