import { humanize } from './raffle-rules';

/** A status as text in a tinted badge: the word carries the meaning, the colour only helps. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{humanize(status)}</span>;
}
