import type { Raffle } from '@raffle/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ApiErrorNotice } from '../../../ui/ApiErrorNotice';
import { allowlistKey, raffleKey } from '../raffle-keys';
import { useAllowlistCalls } from './allowlist-calls';
import { allowlistRefreshMs } from './allowlist-status';
import { AllowlistState } from './AllowlistState';
import { AllowlistVersions } from './AllowlistVersions';
import { CsvDownloads } from './CsvDownloads';
import { CurrentRoot } from './CurrentRoot';
import { SoliditySnippet } from './SoliditySnippet';
import { WalletLookup } from './WalletLookup';

type Props = { raffle: Raffle; workspaceId: string };

/**
 * An allowlist raffle's winners as a Merkle root: where the list is, its current root and every
 * version, the CSV exports, a wallet's leaf and proof, and the check to paste into a contract.
 * Fetched again by itself while the list waits for its finalize, its wallets or its build.
 */
export function AllowlistPanel({ raffle, workspaceId }: Props) {
  const calls = useAllowlistCalls(workspaceId, raffle.id, raffle.slug);
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: allowlistKey(workspaceId, raffle.id),
    queryFn: calls.get,
    refetchInterval: (current) => allowlistRefreshMs(current.state.data, Date.now()),
  });
  const allowlist = query.data;

  // A finalize this page did not make (auto-finalize, another tab) shows here first: refresh the raffle too.
  const lastStatus = useRef(allowlist?.status);
  useEffect(() => {
    if (lastStatus.current === 'awaiting_finalize' && allowlist && allowlist.status !== 'awaiting_finalize') {
      void queryClient.invalidateQueries({ queryKey: raffleKey(workspaceId, raffle.id), exact: true });
    }
    lastStatus.current = allowlist?.status;
  }, [allowlist, queryClient, workspaceId, raffle.id]);

  return (
    <section aria-labelledby="allowlist-heading">
      <h2 id="allowlist-heading">Allowlist</h2>
      {query.error ? <ApiErrorNotice error={query.error} /> : null}
      {query.isLoading ? <p role="status">Loading the allowlist…</p> : null}
      {allowlist ? (
        <>
          <AllowlistState allowlist={allowlist} />
          {allowlist.current ? <CurrentRoot allowlist={allowlist} current={allowlist.current} /> : null}
          <CsvDownloads download={calls.download} />
          {allowlist.current ? (
            <>
              <WalletLookup workspaceId={workspaceId} raffleId={raffle.id} leafOf={calls.leafOf} />
              <SoliditySnippet allowlist={allowlist} current={allowlist.current} />
              <AllowlistVersions allowlist={allowlist} />
            </>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
