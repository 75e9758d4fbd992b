import type { CreatedApiKey } from '@raffle/sdk';
import { SecretOnce } from '../../ui/SecretOnce.js';

/**
 * A key dialog's last step after creating or rolling: the new key's plaintext, shown this once,
 * and Done. Done closes the dialog, whose unmounting is what forgets the plaintext for good.
 */
export function NewKeyShownOnce({ label, created, onDone }: { label: string; created: CreatedApiKey; onDone: () => void }) {
  return (
    <>
      <SecretOnce label={label} secret={created.apiKey} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onDone}>
          Done
        </button>
      </div>
    </>
  );
}
