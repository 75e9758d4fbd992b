import type { RaffleAllowlist as Allowlist } from '@raffle/sdk';
import type { AllowlistVersion } from './allowlist-status';
import type { ReactNode } from 'react';
import { CopyButton } from '../../../ui/CopyButton';
import { DateTime } from '../../../ui/DateTime';
import { FactList } from '../FactList';

/** The root a mint contract is set with, to copy, and what the current version holds. */
export function CurrentRoot({ allowlist, current }: { allowlist: Allowlist; current: AllowlistVersion }) {
  const facts: Array<[string, ReactNode]> = [
    ['Version', current.version],
    ['Leaves', current.count],
    ['Winners without a wallet', current.unlistedWinners],
    ['Quantity per winner', allowlist.quantityPerWinner],
    ['Leaf encoding', <span className="mono">({allowlist.leafEncoding.join(', ')})</span>],
    ['Leaves public', allowlist.leavesPublic ? 'yes, on the public page' : 'no: the root and versions only'],
    ['Published', <DateTime value={current.publishedAt} />],
  ];
  return (
    <>
      <h3>Current root</h3>
      <p className="allowlist-root">
        <code className="mono break" data-testid="allowlist-root">
          {current.root}
        </code>{' '}
        <CopyButton text={current.root} label="Copy root" />
      </p>
      <FactList rows={facts} />
    </>
  );
}
