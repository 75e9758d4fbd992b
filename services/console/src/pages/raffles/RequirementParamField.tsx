import { ROLE_MATCH_LABELS, ROLE_MATCHES, STANDARD_LABELS, TOKEN_STANDARDS, type RequirementField } from './requirement-fields';

type Props = {
  field: RequirementField;
  id: string;
  value: string;
  error: string | undefined;
  chains: readonly string[] | undefined;
  disabled: boolean;
  onChange: (value: string) => void;
};

/** One parameter of a requirement: its control by kind, its hint and its inline error, linked for screen readers. */
export function RequirementParamField({ field, id, value, error, chains, disabled, onChange }: Props) {
  const hintId = field.hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const described = { 'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined, 'aria-invalid': error ? true : undefined };
  let control;
  if (field.kind === 'chain') {
    // A saved raffle may name a chain no longer configured: it stays selectable, and is flagged.
    const names = chains ?? [];
    const options = value !== '' && !names.includes(value) ? [...names, value] : names;
    control = (
      <select id={id} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)} {...described}>
        {value === '' ? <option value="">Choose a chain</option> : null}
        {options.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'standard') {
    control = (
      <select id={id} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)} {...described}>
        {TOKEN_STANDARDS.map((s) => (
          <option key={s} value={s}>
            {STANDARD_LABELS[s]}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'roleMatch') {
    control = (
      <select id={id} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)} {...described}>
        {ROLE_MATCHES.map((m) => (
          <option key={m} value={m}>
            {ROLE_MATCH_LABELS[m]}
          </option>
        ))}
      </select>
    );
  } else {
    // Ids are digits too, and never spell-checked; a list of them is typed with commas.
    const numeric = field.kind === 'days' || field.kind === 'ageDays' || field.kind === 'baseUnits' || field.kind === 'snowflake' || field.kind === 'xUserId';
    const ids = field.kind === 'snowflake' || field.kind === 'snowflakes' || field.kind === 'xUserId';
    control = (
      <input
        id={id}
        value={value}
        disabled={disabled}
        inputMode={numeric ? 'numeric' : undefined}
        spellCheck={field.kind === 'address' || ids ? false : undefined}
        autoComplete="off"
        className={field.kind === 'address' || ids ? 'mono' : undefined}
        onChange={(e) => onChange(e.target.value)}
        {...described}
      />
    );
  }
  return (
    <div className="form-field">
      <label className="form-label" htmlFor={id}>
        {field.label}
      </label>
      {control}
      {field.hint ? (
        <p id={hintId} className="form-hint">
          {field.hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="form-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
