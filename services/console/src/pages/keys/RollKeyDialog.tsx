import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ApiKey, CreatedApiKey } from '@raffle/sdk';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice.js';
import { useToast } from '../../ui/toast.js';
import { GRACE_PRESETS } from './expiry.js';
import { KeyDialog } from './KeyDialog.js';
import { NewKeyShownOnce } from './NewKeyShownOnce.js';
import type { KeyCalls } from './use-key-calls.js';

/**
 * Rolling is its own confirmation: the dialog says what happens to the old key before anything
 * is sent, then shows the replacement's plaintext once.
 */
export function RollKeyDialog({ calls, apiKey, onClose }: { calls: KeyCalls; apiKey: ApiKey; onClose: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [grace, setGrace] = useState<number>(0);
  const [rolled, setRolled] = useState<CreatedApiKey | null>(null);

  const roll = useMutation({
    mutationFn: () => calls.roll(apiKey.id, grace),
    onSuccess: async (key) => {
      toast.success(`Key "${key.name}" rolled`);
      setRolled(key);
      await queryClient.invalidateQueries({ queryKey: calls.listKey });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    roll.mutate();
  };

  if (rolled) {
    return (
      <KeyDialog title="Your rolled API key" onClose={onClose}>
        <NewKeyShownOnce label={`New API key "${rolled.name}"`} created={rolled} calls={calls} onDone={onClose} />
      </KeyDialog>
    );
  }

  return (
    <KeyDialog title={`Roll key "${apiKey.name}"`} onClose={onClose}>
      <form onSubmit={submit}>
        <p>
          A new key with the same name and scopes replaces <code>{apiKey.prefix}…{apiKey.lastFour}</code>. Choose how long the old key keeps working, so
          you can deploy the new one first.
        </p>
        <fieldset className="keys-scopes">
          <legend>What happens to the old key</legend>
          {GRACE_PRESETS.map((preset) => (
            <label key={preset.seconds} className="keys-checkbox">
              <input type="radio" name="grace" value={preset.seconds} checked={grace === preset.seconds} onChange={() => setGrace(preset.seconds)} />
              {preset.label}
            </label>
          ))}
        </fieldset>
        {roll.error && <ApiErrorNotice error={roll.error} />}
        <div className="dialog-actions">
          <button type="submit" className="button button-danger" disabled={roll.isPending}>
            {roll.isPending ? 'Rolling…' : 'Roll key'}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </KeyDialog>
  );
}
