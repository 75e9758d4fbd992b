import { useId, useState, type FormEvent } from 'react';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice.js';
import { FormField } from '../../ui/FormField.js';
import { EventTypePicker } from './event-type-picker.js';

export type EndpointFormValues = { url: string; description: string; eventTypes: string[] };

type Props = {
  audience: 'personal' | 'workspace';
  initial?: EndpointFormValues;
  submitLabel: string;
  /** Resolves when saved; a rejection keeps the form as typed and shows the API's message and request id. */
  onSubmit(values: EndpointFormValues): Promise<unknown>;
  onCancel?(): void;
};

const EMPTY: EndpointFormValues = { url: '', description: '', eventTypes: [] };

/** URL, description and event types: the same fields to register an endpoint and to edit one. */
export function EndpointForm({ audience, initial = EMPTY, submitLabel, onSubmit, onCancel }: Props) {
  const [values, setValues] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [noEventTypes, setNoEventTypes] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const problemId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The API refuses it too; saying so here keeps the typed form and points at the field.
    if (values.eventTypes.length === 0) return setNoEventTypes(true);
    setNoEventTypes(false);
    setFailure(null);
    setBusy(true);
    try {
      await onSubmit({ ...values, url: values.url.trim(), description: values.description.trim() });
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} aria-busy={busy}>
      <FormField label="Endpoint URL" hint="A public https URL of your server; each delivery is a signed POST with a JSON body.">
        <input
          type="url"
          name="url"
          required
          maxLength={2048}
          placeholder="https://example.com/webhooks/raffle"
          value={values.url}
          onChange={(e) => setValues({ ...values, url: e.target.value })}
        />
      </FormField>
      <FormField label="Description (optional)">
        <input type="text" name="description" maxLength={500} value={values.description} onChange={(e) => setValues({ ...values, description: e.target.value })} />
      </FormField>
      <EventTypePicker
        audience={audience}
        selected={values.eventTypes}
        onChange={(eventTypes) => setValues({ ...values, eventTypes })}
        {...(noEventTypes ? { describedBy: problemId } : {})}
      />
      {noEventTypes ? (
        <p id={problemId} role="alert" className="form-error">
          Choose at least one event type.
        </p>
      ) : null}
      <ApiErrorNotice error={failure} />
      <div className="wh-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
