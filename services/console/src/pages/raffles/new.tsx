import './raffle-pages.css';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useManagement } from '../../api/clients';
import { useScope } from '../../scope/scope';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice';
import { useToast } from '../../ui/toast';
import { RaffleFormFields } from './RaffleFormFields';
import { createBodyOf, EMPTY_FORM, formHints, requiredFieldProblems, requirementProblems, withDerivedSlug, type RaffleFormValues } from './raffle-form-values';
import { usePlatformChains } from './use-platform-chains';

/** Create a draft raffle; the API's validation has the last word and its message is shown as is. */
export default function NewRafflePage() {
  const mgmt = useManagement();
  const { scope, basePath, can } = useScope();
  const manage = can('manage');
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<RaffleFormValues>(EMPTY_FORM);
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const chains = usePlatformChains();

  if (scope.kind !== 'workspace') return <p>Raffles belong to workspaces: choose one in the workspace switcher.</p>;
  const workspaceId = scope.workspaceId;
  const hints = [...formHints(values), ...(attempted ? requirementProblems(values, chains.names) : [])];
  const fieldProblems = attempted ? requiredFieldProblems(values) : {};

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setAttempted(true);
    // Refused here, beside the fields: nothing is sent while a required field is empty or a requirement field is wrong.
    if (Object.keys(requiredFieldProblems(values)).length > 0 || requirementProblems(values, chains.names).length > 0) return;
    setSaving(true);
    try {
      const raffle = await mgmt.workspaces.raffles.create(workspaceId, createBodyOf(values));
      await queryClient.invalidateQueries({ queryKey: ['raffles', workspaceId] });
      toast.success(`Draft "${raffle.title}" created`);
      navigate(`${basePath}/raffles/${raffle.id}`);
    } catch (caught) {
      setError(caught);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section aria-labelledby="new-raffle-heading">
      <p>
        <Link to={`${basePath}/raffles`}>← All raffles</Link>
      </p>
      <h1 id="new-raffle-heading">Create a raffle</h1>
      {!manage.allowed ? (
        <p className="notice">{manage.reason}</p>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          <p className="form-hint">It starts as a draft in {scope.workspaceName}: nothing is announced until you publish it.</p>
          <RaffleFormFields
            values={values}
            onChange={(update) => setValues((current) => withDerivedSlug(current, update(current)))}
            idPrefix="new"
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
            <button type="submit" className="button button-primary" disabled={saving}>
              {saving ? 'Creating…' : 'Create draft'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
