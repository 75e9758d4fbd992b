import { MAX_ENTRY_WEIGHT } from '@raffle/contracts/domain-values';
import { humanize, REQUIREMENT_TYPES } from './raffle-rules';
import type { RequirementRow } from './raffle-form-values';
import { RequirementParamField } from './RequirementParamField';
import { initialParams, requirementFieldProblems, visibleFields } from './requirement-fields';
import { usePlatformChains } from './use-platform-chains';

type Props = {
  rows: RequirementRow[];
  onChange: (rows: RequirementRow[]) => void;
  disabled: boolean;
  idPrefix: string;
  /** After a submit attempt: empty required fields are flagged too, not only wrong ones. */
  showAllErrors?: boolean;
};

const DEFAULT_LABELS: Record<string, string> = {
  wallet_connected: 'Wallet connected',
  account_age_days: 'Account old enough',
  email_verified: 'Email verified',
  workspace_member: 'Member of the workspace',
  holds_role: 'Holds a community role',
  token_balance: 'Holds the token',
  native_balance: 'Holds enough of the native coin',
};

const ON_CHAIN = new Set(['token_balance', 'native_balance']);

/** Entry requirements: a type, a label entrants see, the type's parameters, and an optional weight multiplier. */
export function RequirementsEditor({ rows, onChange, disabled, idPrefix, showAllErrors = false }: Props) {
  const chains = usePlatformChains();
  const update = (index: number, patch: Partial<RequirementRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const changeType = (index: number, type: string) => {
    const row = rows[index]!;
    // A label still at its type's default follows the new type; one typed by hand stays.
    const label = row.label === DEFAULT_LABELS[row.type] ? (DEFAULT_LABELS[type] ?? row.label) : row.label;
    update(index, { type, label, params: initialParams(type, chains.names ?? []) });
  };
  const add = () => {
    const type = 'email_verified';
    // Ids must be unique within the raffle; type plus a counter is readable and stable.
    let n = rows.length + 1;
    while (rows.some((r) => r.id === `${type}-${n}`)) n++;
    onChange([...rows, { id: `${type}-${n}`, type, label: DEFAULT_LABELS[type]!, params: {}, optional: false, multiplier: '' }]);
  };
  const anyOnChain = rows.some((r) => ON_CHAIN.has(r.type));

  return (
    <fieldset>
      <legend>Requirements</legend>
      {rows.length === 0 ? <p className="form-hint">No requirements: anyone who can see the raffle may enter.</p> : null}
      {anyOnChain && chains.names?.length === 0 ? (
        <p className="notice">This platform reads no chains (CHAIN_RPC_URLS is empty), so no entrant can meet an on-chain requirement.</p>
      ) : null}
      {rows.map((row, index) => {
        const rid = (name: string) => `${idPrefix}-${index}-${name}`;
        const problems = requirementFieldProblems(row.type, row.params, chains.names, showAllErrors);
        return (
          <div className="requirement-row" key={index} role="group" aria-label={`Requirement ${index + 1}`}>
            <div className="form-field">
              <label className="form-label" htmlFor={rid('type')}>Type</label>
              <select id={rid('type')} value={row.type} disabled={disabled} onChange={(e) => changeType(index, e.target.value)}>
                {REQUIREMENT_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {humanize(t)}
                  </option>
                ))}
              </select>
            </div>
            <div className="form-field">
              <label className="form-label" htmlFor={rid('label')}>Label</label>
              <input id={rid('label')} value={row.label} maxLength={200} disabled={disabled} onChange={(e) => update(index, { label: e.target.value })} />
            </div>
            <div className="form-field">
              <label className="form-label" htmlFor={rid('id')}>Id</label>
              <input id={rid('id')} value={row.id} maxLength={64} disabled={disabled} onChange={(e) => update(index, { id: e.target.value })} />
            </div>
            {visibleFields(row.type, row.params).map((field) => (
              <RequirementParamField
                key={field.key}
                field={field}
                id={rid(field.key)}
                value={row.params[field.key] ?? ''}
                error={problems[field.key]}
                chains={chains.names}
                disabled={disabled}
                onChange={(value) => update(index, { params: { ...row.params, [field.key]: value } })}
              />
            ))}
            <div className="form-field form-field-checkbox">
              <input id={rid('optional')} type="checkbox" checked={row.optional} disabled={disabled} onChange={(e) => update(index, { optional: e.target.checked })} />
              <label className="form-label" htmlFor={rid('optional')}>Optional (boosts the entry weight when met)</label>
            </div>
            {row.optional ? (
              <div className="form-field">
                <label className="form-label" htmlFor={rid('multiplier')}>Weight multiplier (1–100)</label>
                <input
                  id={rid('multiplier')}
                  inputMode="decimal"
                  value={row.multiplier}
                  disabled={disabled}
                  aria-describedby={rid('multiplier-hint')}
                  onChange={(e) => update(index, { multiplier: e.target.value })}
                />
                <small className="form-hint" id={rid('multiplier-hint')}>
                  All multipliers of a raffle multiply to at most {MAX_ENTRY_WEIGHT.toLocaleString('en-US')}.
                </small>
              </div>
            ) : null}
            <button type="button" className="button" disabled={disabled} onClick={() => onChange(rows.filter((_, i) => i !== index))}>
              Remove requirement {index + 1}
            </button>
          </div>
        );
      })}
      <button type="button" className="button" disabled={disabled || rows.length >= 20} onClick={add}>
        Add a requirement
      </button>
    </fieldset>
  );
}
