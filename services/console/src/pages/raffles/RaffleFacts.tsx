import type { Raffle } from '@raffle/sdk';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DateTime } from '../../ui/DateTime';
import { FactList } from './FactList';
import { humanize, isAllowlistAllocation } from './raffle-rules';

const when = (iso: string | null | undefined) => (iso ? <DateTime value={iso} /> : '—');

/** An allowlist raffle's own settings; none for other allocations. */
function allowlistRows(raffle: Raffle): Array<[string, ReactNode]> {
  if (!isAllowlistAllocation(raffle.allocationType)) return [];
  const { allowlistQuantity, allowlistPublic, walletDeadline } = raffle.settings;
  return [
    ['Quantity per winner', allowlistQuantity],
    ['Allowlist leaves', allowlistPublic ? 'every leaf on the public page' : 'root and versions public, leaves not'],
    ['Wallet deadline', walletDeadline ? <DateTime value={walletDeadline} /> : "none: each winning entry's wallet"],
  ];
}

/** The raffle's settings and lifecycle times as a description list. */
export function RaffleFacts({ raffle }: { raffle: Raffle }) {
  const rows: Array<[string, ReactNode]> = [
    ['Slug', <span className="mono">{raffle.slug}</span>],
    ['Mechanic', raffle.mechanic],
    ['Allocation', humanize(raffle.allocationType)],
    ['Visibility', raffle.visibility],
    ['Spots', raffle.spots],
    ['Chain', raffle.chain ?? '—'],
    ['Auto-entry', raffle.allowAutoEntry ? 'allowed' : 'off'],
    ['Auto-draw', raffle.settings.autoDraw ? 'on' : 'off'],
    ['Auto-finalize', raffle.settings.autoFinalize ? 'on' : 'off'],
    ['Flagged duplicates', raffle.settings.excludeFlaggedDuplicates ? 'left out of the draw' : 'included'],
    ...allowlistRows(raffle),
    ['Requirements', raffle.requirements.length === 0 ? 'none' : raffle.requirements.map((r) => r.label).join('; ')],
    ['Starts', when(raffle.startsAt)],
    ['Ends', when(raffle.endsAt)],
    ['Published', when(raffle.publishedAt)],
    ['Opened', when(raffle.openedAt)],
    ['Closed', when(raffle.closedAt)],
    ['Drawn', when(raffle.drawnAt)],
    ['Finalized', when(raffle.finalizedAt)],
    ['Cancelled', when(raffle.cancelledAt)],
    ['Draw commitment', raffle.drawCommitment ? <span className="mono break">{raffle.drawCommitment}</span> : 'set when published'],
  ];
  if (raffle.visibility !== 'private' && raffle.mechanic === 'raffle') {
    rows.push(['Public verification', <Link to={`/verify/${raffle.slug}`}>/verify/{raffle.slug}</Link>]);
  }
  return (
    <section aria-labelledby="raffle-facts-heading">
      <h2 id="raffle-facts-heading">Details</h2>
      {raffle.description ? <p>{raffle.description}</p> : null}
      <FactList rows={rows} />
    </section>
  );
}
