import type { RaffleAllowlist as Allowlist } from '@raffle/sdk';
import type { AllowlistVersion } from './allowlist-status';
import { CopyButton } from '../../../ui/CopyButton';
import { soliditySnippet } from './solidity-snippet';

/** The contract side of the current version: MerkleProof.verify with this root, to copy. */
export function SoliditySnippet({ allowlist, current }: { allowlist: Allowlist; current: AllowlistVersion }) {
  const code = soliditySnippet(allowlist, current);
  return (
    <>
      <h3>Solidity check</h3>
      <p className="form-hint">
        A mint function calls <code>isAllowed(msg.sender, quantity, proof)</code> with the proof each winner gets for their wallet. After a new version, set the new root.
      </p>
      {/* Focusable and named: a keyboard user can scroll the long lines on a phone. */}
      <pre className="code-block" tabIndex={0} role="region" aria-label="Solidity allowlist check" data-testid="allowlist-solidity">
        <code>{code}</code>
      </pre>
      <div className="actions">
        <CopyButton text={code} label="Copy the Solidity check" />
      </div>
    </>
  );
}
