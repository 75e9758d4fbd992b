import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { CreatedApiKey } from '@raffle/sdk';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice.js';
import { FormField } from '../../ui/FormField.js';
import { useToast } from '../../ui/toast.js';
import { EXPIRY_CHOICES, expiresAtFor, type ExpiryChoice } from './expiry.js';
import { KeyDialog } from './KeyDialog.js';
import { NewKeyShownOnce } from './NewKeyShownOnce.js';
import { ScopePicker } from './ScopePicker.js';
import type { KeyCalls } from './use-key-calls.js';

/** The create form, then (once created) the plaintext key: closing the dialog forgets it for good. */
export function CreateKeyDialog({ calls, onClose }: { calls: KeyCalls; onClose: () => void }) {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  return (
    <KeyDialog title={created ? 'Your new API key' : `Create a ${calls.kind} API key`} onClose={onClose}>
      {created ? (
        <NewKeyShownOnce label={`API key "${created.name}"`} created={created} calls={calls} onDone={onClose} />
      ) : (
        <CreateKeyForm calls={calls} onCreated={setCreated} onCancel={onClose} />
      )}
    </KeyDialog>
  );
}

function CreateKeyForm({ calls, onCreated, onCancel }: { calls: KeyCalls; onCreated: (key: CreatedApiKey) => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [expiry, setExpiry] = useState<ExpiryChoice>('never');
  const [customDate, setCustomDate] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: () => calls.create({ name: name.trim(), scopes, expiresAt: expiresAtFor(expiry, customDate) }),
    onSuccess: async (key) => {
      toast.success(`Key "${key.name}" created`);
      onCreated(key);
      await queryClient.invalidateQueries({ queryKey: calls.listKey });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setProblem('Give the key a name.');
    if (scopes.length === 0) return setProblem('Choose at least one scope.');
    if (expiry === 'custom' && !customDate) return setProblem('Pick the expiry date, or choose another expiry.');
    setProblem(null);
    create.mutate();
  };

  return (
    <form onSubmit={submit}>
      <FormField label="Name" hint={'So you can tell your keys apart, e.g. "CI deploys".'}>
        <input name="name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
      </FormField>
      <ScopePicker kind={calls.kind} selected={scopes} onChange={setScopes} />
      <FormField label="Expires">
        <select name="expiry" value={expiry} onChange={(e) => setExpiry(e.target.value as ExpiryChoice)}>
          {EXPIRY_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </FormField>
      {expiry === 'custom' && (
        <FormField label="Expiry date" hint="The key stops working at the end of this day, your time.">
          <input name="expiryDate" type="date" value={customDate} onChange={(e) => setCustomDate(e.target.value)} />
        </FormField>
      )}
      {problem && (
        <p role="alert" className="keys-problem">
          {problem}
        </p>
      )}
      {create.error && <ApiErrorNotice error={create.error} />}
      <div className="dialog-actions">
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
