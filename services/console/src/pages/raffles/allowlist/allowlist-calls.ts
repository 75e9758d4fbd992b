import type { RaffleAllowlistLeaf } from '@raffle/sdk';
import { useMemo } from 'react';
import { useManagement } from '../../../api/clients';
import { saveFile } from '../../../api/save-file';

/** One version's leaf of a wallet, or null when the wallet is not on that version. */
export type WalletLeaf = { version: number; root: string; leaf: RaffleAllowlistLeaf | null };

export type RaffleExport = 'winners' | 'entries';

const FILENAME = /filename="?([^";]+)"?/i;

/**
 * The dashboard's allowlist and CSV exports of one raffle, through the SDK. The exports are files:
 * fetched with the session's token (a plain link would carry none) and handed to the browser to save.
 */
export function useAllowlistCalls(workspaceId: string, raffleId: string, slug: string) {
  const mgmt = useManagement();
  return useMemo(() => {
    const raffles = mgmt.workspaces.raffles;
    return {
      get: () => raffles.allowlist.get(workspaceId, raffleId),
      /** The current version's leaf of `address`: the leaves route narrowed to one wallet. */
      async leafOf(address: string): Promise<WalletLeaf> {
        const page = await raffles.allowlist.leaves(workspaceId, raffleId, { address, limit: 1 }).page();
        return { version: page.version, root: page.root, leaf: page.data[0] ?? null };
      },
      async download(kind: RaffleExport): Promise<void> {
        const csv = await (kind === 'winners' ? raffles.exportWinnersCsv(workspaceId, raffleId) : raffles.exportEntriesCsv(workspaceId, raffleId));
        const named = FILENAME.exec(csv.lastResponse.headers.get('content-disposition') ?? '')?.[1];
        const body = await new Response(csv).arrayBuffer();
        saveFile(new Blob([body], { type: 'text/csv;charset=utf-8' }), named ?? `${slug}-${kind}.csv`);
      },
    };
  }, [mgmt, workspaceId, raffleId, slug]);
}
