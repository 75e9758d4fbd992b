import { useQuery } from '@tanstack/react-query';
import { useManagement } from '../../api/clients.js';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice.js';
import type { KeyKind } from './use-key-calls.js';

/** Checkboxes for the scopes management offers this kind of key (from GET /capabilities, never hard-coded). */
export function ScopePicker({ kind, selected, onChange }: { kind: KeyKind; selected: string[]; onChange: (scopes: string[]) => void }) {
  const mgmt = useManagement();
  const capabilities = useQuery({ queryKey: ['capabilities'], queryFn: () => mgmt.capabilities.get(), staleTime: Infinity });

  if (capabilities.error) return <ApiErrorNotice error={capabilities.error} />;
  const scopes = kind === 'personal' ? capabilities.data?.personalApiScopes : capabilities.data?.workspaceApiScopes;

  const toggle = (scope: string, on: boolean) => onChange(on ? [...selected, scope] : selected.filter((s) => s !== scope));

  return (
    <fieldset className="keys-scopes">
      <legend>Scopes (at least one)</legend>
      {!scopes ? (
        <p aria-live="polite">Loading scopes…</p>
      ) : (
        scopes.map((scope) => (
          <label key={scope} className="keys-checkbox">
            <input type="checkbox" name="scopes" value={scope} checked={selected.includes(scope)} onChange={(e) => toggle(scope, e.target.checked)} />
            <code>{scope}</code>
          </label>
        ))
      )}
    </fieldset>
  );
}
