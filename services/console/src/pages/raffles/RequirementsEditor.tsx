import { MAX_ENTRY_WEIGHT } from '@raffle/contracts/domain-values';
import { humanize, REQUIREMENT_TYPES } from './raffle-rules';
import type { RequirementRow } from './raffle-form-values';
import { RequirementParamField } from './RequirementParamField';
import { requirementFieldProblems, visibleFields } from './requirement-fields';
import { withNewRow, withRowType } from './requirement-rows';
import { usePlatformChains } from './use-platform-chains';

type Props = {
  rows: RequirementRow[];
  /** Given an update of the rows as they are when it applies (not as this render saw them). */
  onChange: (update: (rows: RequirementRow[]) => RequirementRow[]) => void;
  disabled: boolean;
  idPrefix: string;
  /** After a submit attempt: empty required fields are flagged too, not only wrong ones. */
  showAllErrors?: boolean;
};

const ON_CHAIN = new Set(['token_balance', 'native_balance']);
const SOCIAL = new Set(['discord_member', 'discord_role', 'x_follows', 'x_account_age_days']);

/** Entry requirements: a type, a label entrants see, the type's parameters, and an optional weight multiplier. */
export function RequirementsEditor({ rows, onChange, disabled, idPrefix, showAllErrors = false }: Props) {
  const chains = usePlatformChains();
  const update = (index: number, patch: Partial<RequirementRow>) => onChange((current) => current.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const changeType = (index: number, type: string) => onChange((current) => withRowType(current, index, type, chains.names ?? []));
  const add = () => onChange(withNewRow);
  const anyOnChain = rows.some((r) => ON_CHAIN.has(r.type));
  const anySocial = rows.some((r) => SOCIAL.has(r.type));

  return (
    <fieldset>
      <legend>Requirements</legend>
      {rows.length === 0 ? <p className="form-hint">No requirements: anyone who can see the raffle may enter.</p> : null}
      {anyOnChain && chains.names?.length === 0 ? (
        <p className="notice">This platform reads no chains (CHAIN_RPC_URLS is empty), so no entrant can meet an on-chain requirement.</p>
      ) : null}
      {anySocial ? (
        <p className="form-hint">
          Discord and X requirements are checked with each entrant's own linked account (they link it on their Wallets page, under Connections), at entry and again at the draw.
        </p>
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
            <button type="button" className="button" disabled={disabled} onClick={() => onChange((current) => current.filter((_, i) => i !== index))}>
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
