import { humanize, REQUIREMENT_TYPES } from './raffle-rules';
import { REQUIREMENT_PARAM, type RequirementRow } from './raffle-form-values';

type Props = { rows: RequirementRow[]; onChange: (rows: RequirementRow[]) => void; disabled: boolean; idPrefix: string };

const DEFAULT_LABELS: Record<string, string> = {
  wallet_connected: 'Wallet connected',
  account_age_days: 'Account old enough',
  email_verified: 'Email verified',
  workspace_member: 'Member of the workspace',
  holds_role: 'Holds a community role',
};

/** Entry requirements: a type, a label entrants see, the type's one parameter, and an optional weight multiplier. */
export function RequirementsEditor({ rows, onChange, disabled, idPrefix }: Props) {
  const update = (index: number, patch: Partial<RequirementRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const add = () => {
    const type = 'email_verified';
    // Ids must be unique within the raffle; type plus a counter is readable and stable.
    let n = rows.length + 1;
    while (rows.some((r) => r.id === `${type}-${n}`)) n++;
    onChange([...rows, { id: `${type}-${n}`, type, label: DEFAULT_LABELS[type]!, param: '', optional: false, multiplier: '' }]);
  };

  return (
    <fieldset>
      <legend>Requirements</legend>
      {rows.length === 0 ? <p className="form-hint">No requirements: anyone who can see the raffle may enter.</p> : null}
      {rows.map((row, index) => {
        const param = REQUIREMENT_PARAM[row.type];
        const rid = (name: string) => `${idPrefix}-${index}-${name}`;
        return (
          <div className="requirement-row" key={index} role="group" aria-label={`Requirement ${index + 1}`}>
            <div className="form-field">
              <label className="form-label" htmlFor={rid('type')}>Type</label>
              <select id={rid('type')} value={row.type} disabled={disabled} onChange={(e) => update(index, { type: e.target.value, param: '' })}>
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
            {param ? (
              <div className="form-field">
                <label className="form-label" htmlFor={rid('param')}>{param.label}</label>
                <input id={rid('param')} value={row.param} inputMode={param.numeric ? 'numeric' : undefined} disabled={disabled} onChange={(e) => update(index, { param: e.target.value })} />
              </div>
            ) : null}
            <div className="form-field form-field-checkbox">
              <input id={rid('optional')} type="checkbox" checked={row.optional} disabled={disabled} onChange={(e) => update(index, { optional: e.target.checked })} />
              <label className="form-label" htmlFor={rid('optional')}>Optional (boosts the entry weight when met)</label>
            </div>
            {row.optional ? (
              <div className="form-field">
                <label className="form-label" htmlFor={rid('multiplier')}>Weight multiplier (1–100)</label>
                <input id={rid('multiplier')} inputMode="decimal" value={row.multiplier} disabled={disabled} onChange={(e) => update(index, { multiplier: e.target.value })} />
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
