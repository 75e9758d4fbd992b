import { createWalletLinkMessage, type WalletLinkNonce } from '@raffle/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { getAddress, isAddress } from 'viem';
import { useManagement } from '../../api/clients.js';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice.js';
import { FormField } from '../../ui/FormField.js';
import { useToast } from '../../ui/toast.js';
import { connectWallet, injectedWallet, signWithWallet } from './browser-wallet.js';
import { walletKeys } from './wallet-calls.js';

/** A wallet's account and chain, and the message it is to sign, once both are known. */
type Draft = { address: string; chainId: number; message: string };

/**
 * Linking by signature: a fresh nonce, the EIP-4361 message built from it (always shown, so the
 * user sees what they sign), then either the browser wallet signs it (personal_sign), or the user
 * signs it anywhere (a hardware wallet, `cast wallet sign`, …) and pastes the signature.
 */
export function LinkWallet({ onDone }: { onDone: () => void }) {
  const mgmt = useManagement();
  const nonce = useQuery({ queryKey: ['me', 'wallets', 'nonce'], queryFn: () => mgmt.me.wallets.nonce(), gcTime: 0, staleTime: Infinity });
  return (
    <section className="wallet-link" aria-labelledby="wallet-link-title">
      <h2 id="wallet-link-title">Link a wallet</h2>
      {nonce.error ? (
        <ApiErrorNotice error={nonce.error} />
      ) : nonce.isPending ? (
        <p aria-live="polite">Preparing a message to sign…</p>
      ) : (
        <LinkSteps nonce={nonce.data} onDone={onDone} />
      )}
    </section>
  );
}

function LinkSteps({ nonce, onDone }: { nonce: WalletLinkNonce; onDone: () => void }) {
  const mgmt = useManagement();
  const queryClient = useQueryClient();
  const toast = useToast();
  const wallet = useMemo(() => injectedWallet(), []);
  const [address, setAddress] = useState('');
  const [chainId, setChainId] = useState(String(nonce.chainIds[0] ?? ''));
  const [signature, setSignature] = useState('');
  const [browserDraft, setBrowserDraft] = useState<Draft | null>(null);
  const messageId = useId();

  const manualDraft = useMemo((): Draft | null => {
    if (!isAddress(address.trim(), { strict: false }) || !chainId) return null;
    const checksummed = getAddress(address.trim());
    return { address: checksummed, chainId: Number(chainId), message: messageFor(nonce, checksummed, Number(chainId)) };
  }, [address, chainId, nonce]);
  const draft = browserDraft ?? manualDraft;

  const link = useMutation({
    mutationFn: (body: { message: string; signature: string }) => mgmt.me.wallets.link(body),
    onSuccess: (linked) => {
      toast.success(`Wallet ${linked.address} linked on ${linked.chain}`);
      void queryClient.invalidateQueries({ queryKey: walletKeys.list });
      onDone();
    },
  });

  const browserSign = useMutation({
    mutationFn: async () => {
      if (!wallet) throw new Error('No browser wallet found.');
      const account = await connectWallet(wallet);
      if (!nonce.chainIds.includes(account.chainId)) {
        throw new Error(`Your wallet is on chain ${account.chainId}; switch it to one of ${nonce.chainIds.join(', ')} and try again.`);
      }
      const checksummed = getAddress(account.address);
      const message = messageFor(nonce, checksummed, account.chainId);
      // Shown before the wallet's prompt opens: the page says what the wallet is about to ask.
      setBrowserDraft({ address: checksummed, chainId: account.chainId, message });
      const signed = await signWithWallet(wallet, message, checksummed);
      await link.mutateAsync({ message, signature: signed });
    },
  });

  return (
    <>
      {wallet ? (
        <div className="wallet-actions">
          <button type="button" className="button button-primary" onClick={() => browserSign.mutate()} disabled={browserSign.isPending}>
            Sign with browser wallet
          </button>
        </div>
      ) : (
        <p>No browser wallet found on this page: sign the message below with any wallet and paste the signature.</p>
      )}
      {browserSign.error && !link.error ? (
        <div role="alert" className="notice notice-error">
          <p>{browserSign.error instanceof Error ? browserSign.error.message : String(browserSign.error)}</p>
        </div>
      ) : null}
      {!browserDraft && (
        <fieldset className="card">
          <legend>{wallet ? 'Or sign elsewhere and paste the signature' : 'Your wallet'}</legend>
          <FormField label="Wallet address" error={address && !manualDraft ? 'An address is 0x followed by 40 hex digits.' : null}>
            <input name="address" value={address} onChange={(e) => setAddress(e.target.value)} autoComplete="off" spellCheck={false} placeholder="0x…" />
          </FormField>
          <FormField label="Chain ID" hint="The chain the signature is for; these are the chains this platform reads.">
            <select name="chainId" value={chainId} onChange={(e) => setChainId(e.target.value)}>
              {nonce.chainIds.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
          </FormField>
        </fieldset>
      )}
      {draft ? (
        <div className="form-field">
          <label htmlFor={messageId} className="form-label">
            Message to sign
          </label>
          <textarea id={messageId} className="wallet-message" readOnly value={draft.message} />
          <p className="form-hint">
            Sign exactly this text (personal_sign). It expires <time dateTime={nonce.expiresAt}>{new Date(nonce.expiresAt).toLocaleTimeString()}</time>.
          </p>
        </div>
      ) : null}
      {manualDraft && !browserDraft ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            link.mutate({ message: manualDraft.message, signature: signature.trim() });
          }}
        >
          <FormField label="Signature" hint="0x followed by hex digits, as the wallet gave it.">
            <textarea name="signature" className="wallet-signature" value={signature} onChange={(e) => setSignature(e.target.value)} spellCheck={false} required />
          </FormField>
          <div className="wallet-actions">
            <button type="submit" className="button button-primary" disabled={link.isPending || !signature.trim()}>
              Link wallet
            </button>
          </div>
        </form>
      ) : null}
      {link.error ? <ApiErrorNotice error={link.error} /> : null}
      <div className="wallet-actions">
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </>
  );
}

function messageFor(nonce: WalletLinkNonce, address: string, chainId: number): string {
  return createWalletLinkMessage({ address, chainId, nonce: nonce.nonce, domain: nonce.domain || window.location.host, uri: nonce.uri || window.location.origin, statement: nonce.statement });
}
