import type { Raffle } from '@raffle/sdk';
import { useMemo, useState, type FormEvent } from 'react';
import { useManagement } from '../../api/clients';
import type { Permission } from '../../scope/scope';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice';
import { RaffleFormFields } from './RaffleFormFields';
import { formHints, formValuesOf, requiredFieldProblems, requirementProblems, updateBodyOf, type RaffleFormValues } from './raffle-form-values';
import { usePlatformChains } from './use-platform-chains';
import { editableFieldsIn } from './raffle-rules';
import { useRaffleChange } from './use-raffle-change';

type Props = { raffle: Raffle; workspaceId: string; manage: Permission };

/** Edit while the status allows it: only the fields it still takes are enabled, and only changes are sent. */
export function RaffleEditor({ raffle, workspaceId, manage }: Props) {
  const mgmt = useManagement();
  const change = useRaffleChange(workspaceId, raffle.id);
  const editable = useMemo(() => editableFieldsIn(raffle.status), [raffle.status]);
  const saved = useMemo(() => formValuesOf(raffle), [raffle]);
  const [values, setValues] = useState<RaffleFormValues | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const chains = usePlatformChains();

  if (!manage.allowed || editable.size === 0) return null;

  if (!values) {
    return (
      <section aria-labelledby="edit-heading">
        <h2 id="edit-heading">Edit</h2>
        <p className="form-hint">
          {raffle.status === 'draft' ? 'A draft takes any change.' : `A ${raffle.status} raffle still takes some changes.`}
        </p>
        <button type="button" className="button" onClick={() => setValues(saved)}>
          Edit raffle
        </button>
      </section>
    );
  }

  const body = updateBodyOf(values, saved, editable);
  const unchanged = Object.keys(body).length === 0;
  const hints = [...formHints(values), ...(attempted && editable.has('requirements') ? requirementProblems(values, chains.names) : [])];
  const fieldProblems = attempted ? requiredFieldProblems(values, editable) : {};
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setAttempted(true);
    // Refused here, beside the fields: nothing is sent while a required field is empty or a requirement field is wrong.
    if (Object.keys(requiredFieldProblems(values, editable)).length > 0) return;
    if (editable.has('requirements') && requirementProblems(values, chains.names).length > 0) return;
    setSaving(true);
    try {
      await change(() => mgmt.workspaces.raffles.update(workspaceId, raffle.id, body), 'Raffle saved');
      setValues(null);
    } catch (caught) {
      setError(caught);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section aria-labelledby="edit-heading">
      <h2 id="edit-heading">Edit</h2>
      <form className="form" onSubmit={submit} noValidate>
        <RaffleFormFields
          values={values}
          onChange={(update) => setValues((current) => (current ? update(current) : current))}
          editable={editable}
          idPrefix="edit"
          showAllErrors={attempted}
          problems={fieldProblems}
        />
        {hints.length > 0 ? (
          <ul className="hints" aria-live="polite">
            {hints.map((hint) => (
              <li key={hint}>{hint}</li>
            ))}
          </ul>
        ) : null}
        {error ? <ApiErrorNotice error={error} /> : null}
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={saving || unchanged}>
            {saving ? 'Saving…' : 'Save changes'}
          </button>
          <button type="button" className="button" onClick={() => { setValues(null); setError(null); setAttempted(false); }}>
            Discard
          </button>
        </div>
      </form>
    </section>
  );
}
