import { useState } from 'react';
import { ApiErrorNotice } from '../../../ui/ApiErrorNotice';
import type { RaffleExport } from './allowlist-calls';

const EXPORTS: Array<{ kind: RaffleExport; label: string }> = [
  { kind: 'winners', label: 'Download winners CSV' },
  { kind: 'entries', label: 'Download entries CSV' },
];

/** The raffle's winners and entries as CSV files, every row in one download. */
export function CsvDownloads({ download }: { download: (kind: RaffleExport) => Promise<void> }) {
  const [busy, setBusy] = useState<RaffleExport | null>(null);
  const [error, setError] = useState<unknown>(null);
  const start = async (kind: RaffleExport) => {
    setBusy(kind);
    setError(null);
    try {
      await download(kind);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <h3>Exports</h3>
      <div className="actions">
        {EXPORTS.map(({ kind, label }) => (
          <button key={kind} type="button" className="button" disabled={busy !== null} onClick={() => void start(kind)}>
            {busy === kind ? 'Preparing…' : label}
          </button>
        ))}
      </div>
      {error ? <ApiErrorNotice error={error} /> : null}
    </>
  );
}
