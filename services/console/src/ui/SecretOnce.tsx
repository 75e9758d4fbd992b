import { useId, useState } from 'react';

/** A secret the API returns only once: shown in full with a copy button and a warning that it will not be shown again. */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const labelId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };
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
        <button type="button" className="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p aria-live="polite" className="secret-once-status">
        {copied === 'copied' ? 'Copied to the clipboard.' : copied === 'failed' ? 'Could not copy; select the text and copy it.' : ''}
      </p>
    </section>
  );
}
