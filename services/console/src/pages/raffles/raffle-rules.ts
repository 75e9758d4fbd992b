import { DELIVERY_STATUSES, type RaffleStatus } from '@raffle/contracts/domain-values';

/**
 * The raffle state machine as the console needs it, mirroring packages/domain's
 * raffles/transitions.ts and the updateRaffle route's rules (test/raffle-rules.test.ts holds the
 * two together). The console only uses it to decide which controls to offer; the API stays the
 * judge (a stale page still gets a 409, shown as such). Kept here rather than imported so the
 * browser bundle does not pull the domain package; the value lists come from the contracts' own
 * dependency-free module.
 */
export {
  ALLOCATION_TYPES,
  ENTRY_STATUSES,
  RAFFLE_MECHANICS,
  RAFFLE_STATUSES,
  RAFFLE_VISIBILITIES,
  REQUIREMENT_TYPES,
  WIN_STATUSES,
  type RaffleStatus,
} from '@raffle/contracts/domain-values';

/** What a team may record; `not_applicable` is the platform's own value. */
export const SETTABLE_DELIVERY_STATUSES = DELIVERY_STATUSES.filter((s) => s !== 'not_applicable');

export type LifecycleAction = 'publish' | 'open' | 'close' | 'draw' | 'finalize' | 'cancel';

const ACTION_FROM: Record<LifecycleAction, readonly RaffleStatus[]> = {
  publish: ['draft'],
  open: ['scheduled'],
  close: ['open'],
  draw: ['closed'],
  finalize: ['drawn'],
  cancel: ['draft', 'scheduled', 'open'],
};

export const ACTION_LABELS: Record<LifecycleAction, { label: string; confirm: string; done: string; danger?: boolean }> = {
  publish: { label: 'Publish', confirm: 'Publish this raffle? Its draw commitment becomes public; it opens now, or at its start time.', done: 'Raffle published' },
  open: { label: 'Open now', confirm: 'Open this raffle to entries now, before its start time?', done: 'Raffle opened' },
  close: { label: 'Close entries', confirm: 'Close this raffle to entries now?', done: 'Raffle closed' },
  draw: { label: 'Draw winners', confirm: 'Draw the winners now? The draw cannot be undone.', done: 'Winners drawn' },
  finalize: { label: 'Finalize', confirm: 'Finalize this raffle? The selected wins become final.', done: 'Raffle finalized' },
  cancel: { label: 'Cancel raffle', confirm: 'Cancel this raffle? Wins already handed out are disqualified; this cannot be undone.', done: 'Raffle cancelled', danger: true },
};

const ACTION_ORDER: LifecycleAction[] = ['publish', 'open', 'close', 'draw', 'finalize', 'cancel'];

export function actionsAllowedIn(status: string): LifecycleAction[] {
  return ACTION_ORDER.filter((action) => (ACTION_FROM[action] as readonly string[]).includes(status));
}

export type EditableField =
  | 'slug'
  | 'mechanic'
  | 'title'
  | 'description'
  | 'allocationType'
  | 'visibility'
  | 'spots'
  | 'chain'
  | 'allowAutoEntry'
  | 'requirements'
  | 'settings'
  | 'startsAt'
  | 'endsAt';

const ALL_FIELDS: EditableField[] = ['slug', 'mechanic', 'title', 'description', 'allocationType', 'visibility', 'spots', 'chain', 'allowAutoEntry', 'requirements', 'settings', 'startsAt', 'endsAt'];
const OPEN_FIELDS: EditableField[] = ['title', 'description', 'allocationType', 'visibility', 'allowAutoEntry', 'settings', 'endsAt'];

/** Which fields PATCH still takes in this status (empty once the raffle has closed). */
export function editableFieldsIn(status: string): ReadonlySet<EditableField> {
  if (status === 'draft') return new Set(ALL_FIELDS);
  if (status === 'scheduled') return new Set(ALL_FIELDS.filter((f) => f !== 'slug' && f !== 'mechanic'));
  if (status === 'open') return new Set(OPEN_FIELDS);
  return new Set();
}

/** The public proof route serves `raffle`-mechanic draws of public and unlisted raffles only. */
export function publicProofAvailability(raffle: { mechanic: string; status: string; visibility: string }): { available: true } | { available: false; reason: string } {
  if (raffle.mechanic !== 'raffle') return { available: false, reason: `A ${raffle.mechanic} raffle has no verifiable draw: only the "raffle" mechanic draws by seeded weights.` };
  if (raffle.status !== 'drawn' && raffle.status !== 'finalized') return { available: false, reason: 'The proof exists once the raffle is drawn: its seed stays secret until then (only its commitment is public).' };
  if (raffle.visibility === 'private')
    return {
      available: false,
      reason: 'This raffle is private, so the public proof route does not serve it. Entrants who can see it fetch the proof with a personal API key (GET /api/v1/raffles/{slug}/draw) and check it with verifyDraw or the raffle-verify-draw command.',
    };
  return { available: true };
}

/** The allocations whose finalized winners get an allowlist (a Merkle root a mint contract checks): the domain's hasAllowlist. */
export const ALLOWLIST_ALLOCATIONS: readonly string[] = ['allowlist_gtd', 'allowlist_fcfs'];
export const isAllowlistAllocation = (allocationType: string) => ALLOWLIST_ALLOCATIONS.includes(allocationType);

export const humanize = (value: string) => value.replace(/_/g, ' ');
