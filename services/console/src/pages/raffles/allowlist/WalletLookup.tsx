import { verifyAllowlistProof } from '@raffle/sdk';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { ApiErrorNotice } from '../../../ui/ApiErrorNotice';
import { CopyButton } from '../../../ui/CopyButton';
import { addressProblem } from '../evm-address';
import { allowlistLeafKey } from '../raffle-keys';
import type { WalletLeaf } from './allowlist-calls';

type Props = { workspaceId: string; raffleId: string; leafOf: (address: string) => Promise<WalletLeaf> };

/** A wallet's leaf of the current version: its quantity and proof, checked here against the root, or that it is not listed. */
export function WalletLookup({ workspaceId, raffleId, leafOf }: Props) {
  const inputId = useId();
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [address, setAddress] = useState<string | null>(null);
  const query = useQuery({
    queryKey: allowlistLeafKey(workspaceId, raffleId, address ?? ''),
    queryFn: () => leafOf(address!),
    enabled: address !== null,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const candidate = typed.trim();
    const wrong = addressProblem(candidate, 'A wallet address');
    setProblem(wrong);
    if (!wrong) setAddress(candidate);
  };

  return (
    <>
      <h3>Look up a wallet</h3>
      <form className="inline-form wallet-lookup" onSubmit={submit} noValidate>
        <label className="form-label" htmlFor={inputId}>
          Wallet address
        </label>
        <input
          id={inputId}
          className="mono"
          value={typed}
          placeholder="0x…"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${inputId}-error` : undefined}
          onChange={(e) => setTyped(e.target.value)}
        />
        <button type="submit" className="button">
          Look up
        </button>
      </form>
      {problem ? (
        <p id={`${inputId}-error`} className="form-error">
          {problem}
        </p>
      ) : null}
      {query.error ? <ApiErrorNotice error={query.error} /> : null}
      {query.isFetching && !query.data ? <p role="status">Looking the wallet up…</p> : null}
      {query.data && address ? <LookupResult address={address} found={query.data} /> : null}
    </>
  );
}

function LookupResult({ address, found }: { address: string; found: WalletLeaf }) {
  const { leaf, version, root } = found;
  if (!leaf) {
    return (
      <p role="status" data-testid="allowlist-lookup-result">
        <code className="mono break">{address}</code> is not on the allowlist (version {version}).
      </p>
    );
  }
  // The served proof, checked in this browser as MerkleProof.verify would check it on chain.
  const holds = verifyAllowlistProof({ root, address: leaf.address, quantity: leaf.quantity, proof: leaf.proof });
  return (
    <div role="status" data-testid="allowlist-lookup-result">
      <p>
        <code className="mono break">{leaf.address}</code> is on version {version} with quantity <strong>{leaf.quantity}</strong>.{' '}
        {holds ? 'Its proof checks against the root in this browser.' : 'Its proof does NOT check against the root: report this.'}
      </p>
      <p className="form-label">Proof ({leaf.proof.length} {leaf.proof.length === 1 ? 'hash' : 'hashes'}, leaf end first)</p>
      {leaf.proof.length === 0 ? (
        <p>Empty: the list has this one leaf, and the root is its hash.</p>
      ) : (
        <ol className="proof-list" data-testid="allowlist-proof">
          {leaf.proof.map((hash, i) => (
            <li key={`${i}-${hash}`}>
              <code className="mono break">{hash}</code>
            </li>
          ))}
        </ol>
      )}
      <div className="actions">
        <CopyButton text={JSON.stringify(leaf.proof)} label="Copy proof" />
      </div>
    </div>
  );
}
