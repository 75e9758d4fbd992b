import type { ReactNode } from 'react';
import { ALLOCATION_TYPES, humanize, isAllowlistAllocation, RAFFLE_MECHANICS, RAFFLE_VISIBILITIES, type EditableField } from './raffle-rules';
import type { RaffleFormValues } from './raffle-form-values';
import { RequirementsEditor } from './RequirementsEditor';

type Props = {
  values: RaffleFormValues;
  /**
   * Given an update of the values as they are when it applies: two changes in one tick (a fast
   * typist, an autofill) each build on the other, never on the values this render saw.
   */
  onChange: (update: (current: RaffleFormValues) => RaffleFormValues) => void;
  /** Fields the raffle's status still takes; absent means all (a new raffle). */
  editable?: ReadonlySet<EditableField>;
  idPrefix: string;
  /** After a submit attempt: every requirement field's problem is shown, empty ones included. */
  showAllErrors?: boolean;
  /** Problems of the fields themselves (an empty title), shown beside them. */
  problems?: Partial<Record<'title' | 'slug', string>>;
};

const MECHANIC_HINTS: Record<string, string> = {
  raffle: 'Winners drawn verifiably by weight after entries close.',
  fcfs: 'First come, first served: each entry takes a spot until none are left.',
  collection: 'Every eligible entry wins, in arrival order, up to the spots.',
  application: 'The team picks the winners by hand at the draw.',
};

/** The create and edit form's fields; a field the status no longer takes is shown disabled with why. */
export function RaffleFormFields({ values, onChange, editable, idPrefix, showAllErrors, problems = {} }: Props) {
  const set = <K extends keyof RaffleFormValues>(key: K, value: RaffleFormValues[K]) => onChange((current) => ({ ...current, [key]: value }));
  const locked = (field: EditableField) => editable !== undefined && !editable.has(field);
  const id = (name: string) => `${idPrefix}-${name}`;
  const lockNote = (field: EditableField) => (locked(field) ? <small className="form-hint">Can no longer change in this status.</small> : null);

  const problemOf = (name: 'title' | 'slug') => problems[name];
  /** aria-describedby and aria-invalid of a field that may have a problem, its hint (if any) first. */
  const described = (name: 'title' | 'slug', hasHint: boolean) => ({
    'aria-describedby': [hasHint ? id(`${name}-hint`) : null, problemOf(name) ? id(`${name}-error`) : null].filter(Boolean).join(' ') || undefined,
    'aria-invalid': problemOf(name) ? true : undefined,
  });

  /** One labelled input; `name` is its id (and the field its lock follows, unless it is a setting). */
  const field = (name: EditableField | 'allowlistQuantity' | 'walletDeadline', label: string, input: ReactNode, hint?: string) => (
    <div className="form-field">
      <label className="form-label" htmlFor={id(name)}>{label}</label>
      {input}
      {hint ? <small className="form-hint" id={id(`${name}-hint`)}>{hint}</small> : null}
      {(name === 'title' || name === 'slug') && problemOf(name) ? (
        <p id={id(`${name}-error`)} className="form-error">
          {problemOf(name)}
        </p>
      ) : null}
      {name === 'allowlistQuantity' || name === 'walletDeadline' ? null : lockNote(name)}
    </div>
  );

  const checkbox = (key: 'allowAutoEntry' | 'autoDraw' | 'autoFinalize' | 'excludeFlaggedDuplicates' | 'allowlistPublic', label: string, lockField: EditableField) => (
    <div className="form-field form-field-checkbox">
      <input id={id(key)} type="checkbox" checked={values[key]} disabled={locked(lockField)} onChange={(e) => set(key, e.target.checked)} />
      <label htmlFor={id(key)}>{label}</label>
    </div>
  );

  return (
    <>
      {field(
        'title',
        'Title',
        <input id={id('title')} required maxLength={200} value={values.title} disabled={locked('title')} {...described('title', false)} onChange={(e) => set('title', e.target.value)} />,
      )}
      {field(
        'slug',
        'Slug',
        <input
          id={id('slug')}
          required
          minLength={3}
          maxLength={64}
          value={values.slug}
          disabled={locked('slug')}
          {...described('slug', true)}
          onChange={(e) => set('slug', e.target.value)}
        />,
        'Globally unique, lowercase words joined by hyphens; part of the public verification link.',
      )}
      {field(
        'description',
        'Description (optional)',
        <textarea id={id('description')} rows={3} maxLength={10_000} value={values.description} disabled={locked('description')} onChange={(e) => set('description', e.target.value)} />,
      )}
      {field(
        'mechanic',
        'Mechanic',
        <select id={id('mechanic')} value={values.mechanic} disabled={locked('mechanic')} aria-describedby={id('mechanic-hint')} onChange={(e) => set('mechanic', e.target.value)}>
          {RAFFLE_MECHANICS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>,
        MECHANIC_HINTS[values.mechanic],
      )}
      {field(
        'allocationType',
        'Allocation',
        <select id={id('allocationType')} value={values.allocationType} disabled={locked('allocationType')} onChange={(e) => set('allocationType', e.target.value)}>
          {ALLOCATION_TYPES.map((a) => (
            <option key={a} value={a}>
              {humanize(a)}
            </option>
          ))}
        </select>,
      )}
      {field(
        'visibility',
        'Visibility',
        <select id={id('visibility')} value={values.visibility} disabled={locked('visibility')} aria-describedby={id('visibility-hint')} onChange={(e) => set('visibility', e.target.value)}>
          {RAFFLE_VISIBILITIES.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>,
        'Public and unlisted raffles get a public draw proof page; private ones do not.',
      )}
      {field(
        'spots',
        'Spots',
        <input id={id('spots')} inputMode="numeric" required value={values.spots} disabled={locked('spots')} aria-describedby={id('spots-hint')} onChange={(e) => set('spots', e.target.value)} />,
        'How many winners (1 to 100,000).',
      )}
      {field(
        'chain',
        'Chain (optional)',
        <input id={id('chain')} maxLength={32} value={values.chain} disabled={locked('chain')} aria-describedby={id('chain-hint')} onChange={(e) => set('chain', e.target.value)} />,
        'For example "ethereum": the wallet recorded with each entry and used for duplicate checks.',
      )}
      {field(
        'startsAt',
        'Starts at (optional, your time zone)',
        <input id={id('startsAt')} type="datetime-local" value={values.startsAt} disabled={locked('startsAt')} aria-describedby={id('startsAt-hint')} onChange={(e) => set('startsAt', e.target.value)} />,
        'Empty or past: the raffle opens when it is published.',
      )}
      {field(
        'endsAt',
        'Ends at (optional, your time zone)',
        <input id={id('endsAt')} type="datetime-local" value={values.endsAt} disabled={locked('endsAt')} aria-describedby={id('endsAt-hint')} onChange={(e) => set('endsAt', e.target.value)} />,
        'Empty: you close it by hand.',
      )}
      <fieldset>
        <legend>Options</legend>
        {checkbox('allowAutoEntry', 'Allow auto-entry', 'allowAutoEntry')}
        {checkbox('autoDraw', 'Draw automatically when entries close (not for application raffles)', 'settings')}
        {checkbox('autoFinalize', 'Finalize automatically once drawn', 'settings')}
        {checkbox('excludeFlaggedDuplicates', 'Leave entries flagged as duplicates out of the draw', 'settings')}
        {lockNote('settings')}
      </fieldset>
      {isAllowlistAllocation(values.allocationType) ? (
        <fieldset>
          <legend>Allowlist</legend>
          <p className="form-hint">Once finalized, the winners' wallets become a Merkle root your mint contract checks.</p>
          {field(
            'allowlistQuantity',
            'Quantity per winner',
            <input
              id={id('allowlistQuantity')}
              inputMode="numeric"
              required
              value={values.allowlistQuantity}
              disabled={locked('settings')}
              aria-describedby={id('allowlistQuantity-hint')}
              onChange={(e) => set('allowlistQuantity', e.target.value)}
            />,
            "What each winner's leaf lets them mint (its uint256): 1 to 1,000,000.",
          )}
          {checkbox('allowlistPublic', 'Publish every leaf of the allowlist on the public page', 'settings')}
          {field(
            'walletDeadline',
            'Wallet deadline (optional, your time zone)',
            <input
              id={id('walletDeadline')}
              type="datetime-local"
              value={values.walletDeadline}
              disabled={locked('settings')}
              aria-describedby={id('walletDeadline-hint')}
              onChange={(e) => set('walletDeadline', e.target.value)}
            />,
            'Until then winners may name the wallet their leaf is for, and the allowlist is built after it. Empty: the wallet each winning entry recorded, built at finalize.',
          )}
          {lockNote('settings')}
        </fieldset>
      ) : null}
      <RequirementsEditor rows={values.requirements} disabled={locked('requirements')} idPrefix={id('req')} showAllErrors={showAllErrors} onChange={(update) => onChange((current) => ({ ...current, requirements: update(current.requirements) }))} />
    </>
  );
}
