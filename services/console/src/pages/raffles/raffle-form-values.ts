import type { CreateRaffleParams, Raffle, UpdateRaffleParams } from '@raffle/sdk';
import { RAFFLE_SLUG } from '@raffle/contracts/domain-values';
import { isAllowlistAllocation, type EditableField } from './raffle-rules.js';
import { paramsBody, REQUIREMENT_FIELDS, requirementFieldProblems } from './requirement-fields.js';

const SLUG = new RegExp(RAFFLE_SLUG.pattern);

/**
 * The slug a title suggests: accents dropped, lowercase ASCII letters and digits, every other run
 * of characters one hyphen, cut at a hyphen to the API's length. Empty when too little is left to
 * make a slug the API takes (a title of one letter, or of no Latin letters or digits).
 */
export function slugify(title: string): string {
  let slug = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length > RAFFLE_SLUG.maxLength) {
    const cut = slug.slice(0, RAFFLE_SLUG.maxLength + 1);
    const lastHyphen = cut.lastIndexOf('-');
    // Whole words when there is a word boundary to cut at; otherwise the first maxLength characters.
    slug = (lastHyphen >= RAFFLE_SLUG.minLength ? cut.slice(0, lastHyphen) : cut.slice(0, RAFFLE_SLUG.maxLength)).replace(/-+$/, '');
  }
  return slug.length >= RAFFLE_SLUG.minLength && SLUG.test(slug) ? slug : '';
}

/**
 * A new raffle's form after a change: the slug follows the title until it is edited by hand,
 * that is while it is still what the previous title gave.
 */
export function withDerivedSlug(previous: RaffleFormValues, next: RaffleFormValues): RaffleFormValues {
  const following = previous.slug === slugify(previous.title);
  return following && next.slug === previous.slug && next.title !== previous.title ? { ...next, slug: slugify(next.title) } : next;
}

export type RequirementRow = {
  id: string;
  type: string;
  label: string;
  /** The type's parameters (requirement-fields.ts), as typed. */
  params: Record<string, string>;
  optional: boolean;
  multiplier: string;
};

/** The form's state: strings as the inputs hold them, converted only when sent. */
export type RaffleFormValues = {
  slug: string;
  title: string;
  description: string;
  mechanic: string;
  allocationType: string;
  visibility: string;
  spots: string;
  chain: string;
  allowAutoEntry: boolean;
  startsAt: string;
  endsAt: string;
  autoDraw: boolean;
  autoFinalize: boolean;
  excludeFlaggedDuplicates: boolean;
  /** Allowlist allocations only: each winner's leaf quantity, whether every leaf is public, the wallet deadline. */
  allowlistQuantity: string;
  allowlistPublic: boolean;
  walletDeadline: string;
  requirements: RequirementRow[];
};

export const EMPTY_FORM: RaffleFormValues = {
  slug: '',
  title: '',
  description: '',
  mechanic: 'raffle',
  allocationType: 'allowlist_gtd',
  visibility: 'public',
  spots: '10',
  chain: '',
  allowAutoEntry: false,
  startsAt: '',
  endsAt: '',
  autoDraw: false,
  autoFinalize: false,
  excludeFlaggedDuplicates: false,
  allowlistQuantity: '1',
  allowlistPublic: false,
  walletDeadline: '',
  requirements: [],
};

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as a `datetime-local` value in the browser's time zone. */
export function isoToLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (browser time zone) as an ISO instant; empty means none. */
export function localInputToIso(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function formValuesOf(raffle: Raffle): RaffleFormValues {
  return {
    slug: raffle.slug,
    title: raffle.title,
    description: raffle.description ?? '',
    mechanic: raffle.mechanic,
    allocationType: raffle.allocationType,
    visibility: raffle.visibility,
    spots: String(raffle.spots),
    chain: raffle.chain ?? '',
    allowAutoEntry: raffle.allowAutoEntry,
    startsAt: isoToLocalInput(raffle.startsAt),
    endsAt: isoToLocalInput(raffle.endsAt),
    autoDraw: raffle.settings.autoDraw,
    autoFinalize: raffle.settings.autoFinalize,
    excludeFlaggedDuplicates: raffle.settings.excludeFlaggedDuplicates,
    allowlistQuantity: String(raffle.settings.allowlistQuantity),
    allowlistPublic: raffle.settings.allowlistPublic,
    walletDeadline: isoToLocalInput(raffle.settings.walletDeadline),
    requirements: raffle.requirements.map((r) => {
      const params = r.params as Record<string, unknown>;
      const typed: Record<string, string> = {};
      for (const field of REQUIREMENT_FIELDS[r.type] ?? []) {
        const value = params[field.key];
        // A list (discord_role's roleIds) is edited as ids separated by commas.
        if (value !== undefined) typed[field.key] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      return {
        id: r.id,
        type: r.type,
        label: r.label,
        params: typed,
        optional: params.optional === true,
        multiplier: params.multiplier !== undefined ? String(params.multiplier) : '',
      };
    }),
  };
}

function requirementsBody(rows: RequirementRow[]): NonNullable<CreateRaffleParams['requirements']> {
  return rows.map((row) => {
    const params = paramsBody(row.type, row.params);
    if (row.optional) {
      params.optional = true;
      if (row.multiplier !== '') params.multiplier = Number.isFinite(Number(row.multiplier)) ? Number(row.multiplier) : row.multiplier;
    }
    return { id: row.id, type: row.type as never, label: row.label, params };
  });
}

/** A whole number as a number; anything else as typed, for the API's validation to say why. */
const wholeOrTyped = (typed: string): number => (/^\d+$/.test(typed) ? Number(typed) : (typed as unknown as number));

/** Every field as the API's body shapes it. Spots and the allowlist quantity go as typed when not an integer: the API says why. */
function fieldsOf(v: RaffleFormValues) {
  return {
    slug: v.slug.trim(),
    mechanic: v.mechanic,
    title: v.title.trim(),
    description: v.description.trim() === '' ? null : v.description,
    allocationType: v.allocationType,
    visibility: v.visibility,
    spots: wholeOrTyped(v.spots),
    chain: v.chain.trim() === '' ? null : v.chain.trim(),
    allowAutoEntry: v.allowAutoEntry,
    requirements: requirementsBody(v.requirements),
    settings: {
      autoDraw: v.autoDraw,
      autoFinalize: v.autoFinalize,
      excludeFlaggedDuplicates: v.excludeFlaggedDuplicates,
      // Quantity and publicity go whatever the allocation (their defaults when never shown): the
      // raffle keeps them for when it becomes an allowlist. A wallet deadline only on an allowlist
      // allocation, which the API insists on: one typed before switching to another is dropped.
      allowlistQuantity: wholeOrTyped(v.allowlistQuantity.trim()),
      allowlistPublic: v.allowlistPublic,
      walletDeadline: isAllowlistAllocation(v.allocationType) ? localInputToIso(v.walletDeadline) : null,
    },
    startsAt: localInputToIso(v.startsAt),
    endsAt: localInputToIso(v.endsAt),
  } as const;
}

export function createBodyOf(v: RaffleFormValues): CreateRaffleParams {
  return fieldsOf(v) as unknown as CreateRaffleParams;
}

/** Only the fields this status still takes and that differ from the saved raffle. */
export function updateBodyOf(v: RaffleFormValues, saved: RaffleFormValues, editable: ReadonlySet<EditableField>): UpdateRaffleParams {
  const next = fieldsOf(v) as Record<string, unknown>;
  const before = fieldsOf(saved) as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  for (const field of editable) {
    if (JSON.stringify(next[field]) !== JSON.stringify(before[field])) body[field] = next[field];
  }
  return body as UpdateRaffleParams;
}

const MAX_ALLOWLIST_QUANTITY = 1_000_000;

function allowlistHints(v: RaffleFormValues, ends: string | null): string[] {
  const hints: string[] = [];
  const quantity = v.allowlistQuantity.trim();
  if (!/^\d+$/.test(quantity) || Number(quantity) < 1 || Number(quantity) > MAX_ALLOWLIST_QUANTITY) hints.push('The quantity per winner must be a whole number from 1 to 1,000,000.');
  const deadline = localInputToIso(v.walletDeadline);
  // Winners name their wallet after they win: a deadline before the end leaves them no time.
  if (deadline && ends && deadline <= ends) hints.push('The wallet deadline must come after the end: winners name their wallet once they have won.');
  return hints;
}

/** Hints shown before sending; the API's own validation still decides and its message is shown. */
export function formHints(v: RaffleFormValues): string[] {
  const hints: string[] = [];
  if (v.slug && !SLUG.test(v.slug)) hints.push('The slug takes lowercase letters and digits joined by single hyphens.');
  if (!/^\d+$/.test(v.spots) || Number(v.spots) < 1 || Number(v.spots) > 100_000) hints.push('Spots must be a whole number from 1 to 100,000.');
  const starts = localInputToIso(v.startsAt);
  const ends = localInputToIso(v.endsAt);
  if (starts && ends && ends <= starts) hints.push('The end must come after the start.');
  if (v.mechanic === 'application' && v.autoDraw) hints.push('Auto-draw does not apply to application raffles: the team picks the winners.');
  if (isAllowlistAllocation(v.allocationType)) hints.push(...allowlistHints(v, ends));
  return hints;
}

/**
 * The fields the API requires that are empty, by field, with what to do. Checked here so an empty
 * title (cleared, or typed while the page was still settling) is refused beside its field instead of
 * reaching the API as a 400; only the fields the status still takes are judged.
 */
export function requiredFieldProblems(v: RaffleFormValues, editable?: ReadonlySet<EditableField>): Partial<Record<'title' | 'slug', string>> {
  const problems: Partial<Record<'title' | 'slug', string>> = {};
  const judged = (field: EditableField) => editable === undefined || editable.has(field);
  if (judged('title') && v.title.trim() === '') problems.title = 'Give the raffle a title.';
  if (judged('slug') && v.slug.trim() === '') problems.slug = 'Give the raffle a slug (its title suggests one).';
  return problems;
}

/**
 * What keeps the form from being sent: a requirement field with a problem a person can fix here
 * (an address that fails its checksum, a minimum that is not a whole number, a chain the platform
 * does not read). Shown beside each field; this is their summary.
 */
export function requirementProblems(v: RaffleFormValues, chains: readonly string[] | undefined): string[] {
  return v.requirements.flatMap((row, index) =>
    Object.values(requirementFieldProblems(row.type, row.params, chains, true)).map((problem) => `Requirement ${index + 1}: ${problem}`),
  );
}
