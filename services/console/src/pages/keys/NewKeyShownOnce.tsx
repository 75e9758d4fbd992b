import type { CreatedApiKey } from '@raffle/sdk';
import { SecretOnce } from '../../ui/SecretOnce.js';
import { KeyUsageExample } from './KeyUsageExample.js';
import { usageExampleFor } from './usage-example.js';
import type { KeyCalls } from './use-key-calls.js';

/**
 * A key dialog's last step after creating or rolling: the new key's plaintext, shown this once, how
 * to call the data plane with it, and Done. Done closes the dialog, whose unmounting is what forgets
 * the plaintext (the snippets' copy of it too) for good.
 */
export function NewKeyShownOnce({ label, created, calls, onDone }: { label: string; created: CreatedApiKey; calls: KeyCalls; onDone: () => void }) {
  // This console's origin serves /api/v1 (its server proxies it, as the ingress does in production).
  const example = usageExampleFor({ kind: calls.kind, workspaceId: calls.workspaceId, scopes: created.scopes, apiKey: created.apiKey, baseUrl: window.location.origin });
  return (
    <>
      <SecretOnce label={label} secret={created.apiKey} />
      <KeyUsageExample example={example} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onDone}>
          Done
        </button>
      </div>
    </>
  );
}
