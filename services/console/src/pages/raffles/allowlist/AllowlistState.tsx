import type { RaffleAllowlist as Allowlist } from '@raffle/sdk';
import { DateTime } from '../../../ui/DateTime';
import { ALLOWLIST_STATUS_LABELS } from './allowlist-status';

/** Where the list is, as a badge and a sentence; announced politely as it moves on. */
export function AllowlistState({ allowlist }: { allowlist: Allowlist }) {
  const { status, current, walletDeadline } = allowlist;
  let sentence;
  if (status === 'awaiting_finalize') sentence = <>It is built from the finalized winners once the raffle is finalized.</>;
  else if (status === 'awaiting_wallets')
    sentence = (
      <>
        Awaiting wallets until <DateTime value={walletDeadline} />: winners may name the wallet their leaf is for, and the list is built after that.
      </>
    );
  else if (status === 'building')
    sentence = current ? <>Building version {current.version + 1}; version {current.version} stays current until it is published.</> : <>Building the first version.</>;
  else if (status === 'published') sentence = <>Version {current?.version} is published.</>;
  else sentence = <>This raffle's allocation has no allowlist.</>;
  return (
    <p role="status" data-testid="allowlist-status">
      <span className={`badge badge-allowlist-${status}`}>{ALLOWLIST_STATUS_LABELS[status]}</span> {sentence}
    </p>
  );
}
