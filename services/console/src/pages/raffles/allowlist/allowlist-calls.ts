import type { Allowlist, AllowlistLeaf } from '@raffle/contracts';
import { useMemo } from 'react';
import { failureOf, useSessionFetch } from '../../../api/session-fetch';
import { saveFile } from '../../../api/save-file';

/** One version's leaf of a wallet, or null when the wallet is not on that version. */
export type WalletLeaf = { version: number; root: string; leaf: AllowlistLeaf | null };

export type RaffleExport = 'winners' | 'entries';

const FILENAME = /filename="?([^";]+)"?/i;

/**
 * The dashboard's allowlist routes and CSV exports of one raffle. The exports are files: fetched
 * with the session's token (a plain link would carry none) and handed to the browser to save.
 */
export function useAllowlistCalls(workspaceId: string, raffleId: string, slug: string) {
  const sessionFetch = useSessionFetch();
  return useMemo(() => {
    const base = `/api/dashboard/workspaces/${encodeURIComponent(workspaceId)}/raffles/${encodeURIComponent(raffleId)}`;
    const json = async <T,>(path: string): Promise<T> => {
      const response = await sessionFetch(path, { headers: { accept: 'application/json' } });
      if (!response.ok) throw await failureOf(response);
      return (await response.json()) as T;
    };
    return {
      get: () => json<Allowlist>(`${base}/allowlist`),
      /** The current version's leaf of `address`: the leaves route narrowed to one wallet. */
      async leafOf(address: string): Promise<WalletLeaf> {
        const page = await json<{ version: number; root: string; data: AllowlistLeaf[] }>(`${base}/allowlist/leaves?${new URLSearchParams({ address, limit: '1' })}`);
        return { version: page.version, root: page.root, leaf: page.data[0] ?? null };
      },
      async download(kind: RaffleExport): Promise<void> {
        const response = await sessionFetch(`${base}/exports/${kind}.csv`, { headers: { accept: 'text/csv' } });
        if (!response.ok) throw await failureOf(response);
        const named = FILENAME.exec(response.headers.get('content-disposition') ?? '')?.[1];
        saveFile(await response.blob(), named ?? `${slug}-${kind}.csv`);
      },
    };
  }, [sessionFetch, workspaceId, raffleId, slug]);
}
