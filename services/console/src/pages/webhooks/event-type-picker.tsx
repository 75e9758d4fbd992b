import type { RaffleManagementClient, WebhookEventTypeRecord } from '@raffle/sdk';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useManagement } from '../../api/clients.js';
import { ApiErrorNotice } from '../../ui/ApiErrorNotice.js';

type Props = {
  audience: 'personal' | 'workspace';
  selected: string[];
  onChange(selected: string[]): void;
  describedBy?: string;
};

/** `webhook.test` reaches any endpoint on demand, whatever it subscribes to: offering it would mean nothing. */
const ON_DEMAND_ONLY = new Set(['webhook.test']);

async function loadCatalogue(mgmt: RaffleManagementClient): Promise<WebhookEventTypeRecord[]> {
  const all: WebhookEventTypeRecord[] = [];
  for await (const eventType of mgmt.eventTypes.list()) all.push(eventType);
  return all;
}

/** Checkboxes for the event types this kind of owner can receive, each with what it means. */
export function EventTypePicker({ audience, selected, onChange, describedBy }: Props) {
  const mgmt = useManagement();
  const id = useId();
  const catalogue = useQuery({ queryKey: ['event-types'], queryFn: () => loadCatalogue(mgmt), staleTime: Infinity });

  if (catalogue.error) return <ApiErrorNotice error={catalogue.error} />;
  if (!catalogue.data) return <p aria-live="polite">Loading event types…</p>;

  const offered = catalogue.data.filter((t) => t.audiences.includes(audience) && !ON_DEMAND_ONLY.has(t.type));
  const toggle = (type: string, checked: boolean) => onChange(checked ? [...selected, type] : selected.filter((t) => t !== type));

  return (
    <fieldset className="wh-event-types" aria-describedby={describedBy}>
      <legend>Event types</legend>
      <ul>
        {offered.map((t, i) => (
          <li key={t.type} className="wh-event-type">
            <input
              type="checkbox"
              id={`${id}-${i}`}
              value={t.type}
              checked={selected.includes(t.type)}
              onChange={(e) => toggle(t.type, e.target.checked)}
              aria-describedby={`${id}-${i}-description`}
            />
            <label htmlFor={`${id}-${i}`}>
              <code>{t.type}</code>
            </label>
            <p id={`${id}-${i}-description`}>
              <InlineCode text={t.description} />
            </p>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** The catalogue's descriptions mark names with backticks, as Markdown does: shown as code. */
function InlineCode({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}
    </>
  );
}
