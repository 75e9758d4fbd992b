import type { LinkedWallet } from '@raffle/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useManagement } from '../../api/clients.js';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice.js';
import { ConfirmButton } from '../../ui/ConfirmButton.js';
import { DateTime } from '../../ui/DateTime.js';
import { EmptyState } from '../../ui/EmptyState.js';
import { Pager } from '../../ui/Pager.js';
import { useToast } from '../../ui/toast.js';
import { usePagedList } from '../../ui/usePagedList.js';
import { ConnectionsSection } from '../connections/ConnectionsSection.js';
import { LinkWallet } from './LinkWallet.js';
import { walletKeys } from './wallet-calls.js';
import './wallets.css';

const PROOFS: Record<string, string> = { siwe: 'signature', erc1271: 'contract wallet (ERC-1271)', seed: 'demo data' };

/** The signed-in user's wallets (the ones linked, unlinking, linking one by its signature) and their Discord and X connections. */
export default function WalletsPage() {
  const mgmt = useManagement();
  const wallets = usePagedList(walletKeys.list, (cursor) => mgmt.me.wallets.list().page(cursor ? { cursor } : {}));
  const [linking, setLinking] = useState(false);

  return (
    <section className="wallets-page" aria-labelledby="wallets-title">
      <h1 id="wallets-title">Wallets</h1>
      <p>Wallets you proved you hold, by signing a message with them. Raffles that ask for tokens count what these wallets hold.</p>
      <div className="wallets-toolbar">
        {!linking && (
          <button type="button" className="button button-primary" onClick={() => setLinking(true)}>
            Link a wallet
          </button>
        )}
      </div>
      {linking && <LinkWallet onDone={() => setLinking(false)} />}
      {wallets.error ? (
        <ApiErrorNotice error={wallets.error} />
      ) : wallets.isLoading ? (
        <p aria-live="polite">Loading wallets…</p>
      ) : wallets.items.length === 0 ? (
        <EmptyState title="No wallets linked yet">Link a wallet to enter raffles that ask for tokens or a balance.</EmptyState>
      ) : (
        <div className="table-wrap">
          <table >
            <caption className="visually-hidden">Your linked wallets</caption>
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col">Chain</th>
                <th scope="col">Proven by</th>
                <th scope="col">Verified</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {wallets.items.map((wallet) => (
                <WalletRow key={`${wallet.chain}/${wallet.address}`} wallet={wallet} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager list={wallets} label="Wallet pages" />
      <ConnectionsSection />
    </section>
  );
}

function WalletRow({ wallet }: { wallet: LinkedWallet }) {
  const mgmt = useManagement();
  const queryClient = useQueryClient();
  const toast = useToast();
  const unlink = useMutation({
    mutationFn: () => mgmt.me.wallets.unlink(wallet.chain, wallet.address),
    onSuccess: () => toast.success(`Wallet ${wallet.address} unlinked`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletKeys.list }),
  });
  return (
    <tr data-wallet={wallet.address}>
      <th scope="row">
        <code>{wallet.address}</code>
      </th>
      <td>
        {wallet.chain}
        {wallet.chainId !== null ? ` (${wallet.chainId})` : ''}
      </td>
      <td>{wallet.verifiedBy ? PROOFS[wallet.verifiedBy] : 'not verified'}</td>
      <td>{wallet.verifiedAt ? <DateTime value={wallet.verifiedAt} /> : 'Never'}</td>
      <td>
        <ConfirmButton
          label="Unlink"
          danger
          confirmText={`Unlink ${wallet.address} on ${wallet.chain}? It stops counting for raffles' token requirements; linking it again needs a new signature.`}
          onConfirm={() => unlink.mutateAsync()}
        />
      </td>
    </tr>
  );
}
