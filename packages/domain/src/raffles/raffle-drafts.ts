import type { CreateRaffleBody, UpdateRaffleBody } from '@raffle/contracts';
import { DEFAULT_RAFFLE_SETTINGS, insertRaffle, isProjectOfWorkspace, updateRaffle, type Db, type DbOrTx, type schema } from '@raffle/db';
import { systemClock, type Clock } from '../clock.js';
import { isUniqueViolation } from '../unique-violation.js';
import { DomainError } from '../errors.js';
import { requireWorkspaceAccess, type Principal } from '../principal.js';
import { requirementProblems } from '../requirements/evaluate.js';
import { withRequirementIds } from '../requirements/requirement-ids.js';
import { lockRaffleAs, type RaffleRecord } from './raffle-locks.js';
import { assertRaffleCan } from './transitions.js';
import { hasAllowlist } from '../allowlists/allowlist-settings.js';

type Settings = schema.RaffleSettings;

/**
 * What may still change in each status. Before publish everything; once scheduled, not what
 * addresses or defines the raffle (slug, mechanic); once open, not what entries were judged
 * against (requirements, chain, spots) or what already happened (startsAt).
 */
const EDITABLE: Record<string, ReadonlySet<keyof UpdateRaffleBody> | 'all'> = {
  draft: 'all',
  scheduled: new Set<keyof UpdateRaffleBody>([
    'title', 'description', 'allocationType', 'visibility', 'spots', 'chain', 'allowAutoEntry', 'requirements', 'settings', 'canonicalProjectId', 'startsAt', 'endsAt',
  ]),
  open: new Set<keyof UpdateRaffleBody>(['title', 'description', 'allocationType', 'visibility', 'allowAutoEntry', 'settings', 'canonicalProjectId', 'endsAt']),
};

const date = (value: string | null | undefined) => (value === undefined ? undefined : value === null ? null : new Date(value));

type Shape = { mechanic: string; allocationType: string; requirements: schema.RaffleRequirement[]; settings: Settings; startsAt: Date | null; endsAt: Date | null };

async function problemsOf(
  tx: DbOrTx,
  workspaceId: string,
  shape: Shape,
  canonicalProjectId: string | null | undefined,
  readable: { chains?: readonly string[]; providers?: readonly string[] },
): Promise<string[]> {
  const problems = requirementProblems(shape.requirements, readable);
  if (shape.mechanic === 'application' && shape.settings.autoDraw) {
    problems.push('settings.autoDraw cannot be set on an application raffle: its winners are selected by hand');
  }
  if (shape.startsAt && shape.endsAt && shape.endsAt <= shape.startsAt) problems.push('endsAt must be after startsAt');
  problems.push(...allowlistSettingProblems(shape));
  if (canonicalProjectId && !(await isProjectOfWorkspace(tx, { projectId: canonicalProjectId, workspaceId }))) {
    problems.push(`canonicalProjectId ${canonicalProjectId} is not a project of this workspace`);
  }
  return problems;
}

/** The allowlist settings (issue 35) only mean something on an allowlist raffle, and winners name wallets after entries close. */
function allowlistSettingProblems(shape: Shape): string[] {
  const { walletDeadline } = shape.settings;
  if (!walletDeadline) return [];
  if (!hasAllowlist(shape)) return [`settings.walletDeadline is for allowlist raffles (allocationType allowlist_gtd or allowlist_fcfs), not ${shape.allocationType}`];
  if (shape.endsAt && new Date(walletDeadline) <= shape.endsAt) return ['settings.walletDeadline must be after endsAt: winners name their wallets once they have won'];
  return [];
}

/** Settings as stored: a wallet deadline in one ISO form, whatever offset it was sent with. */
const normalisedSettings = (settings: Settings): Settings => ({ ...settings, walletDeadline: settings.walletDeadline ? new Date(settings.walletDeadline).toISOString() : null });

function refuse(problems: string[]): void {
  if (problems.length > 0) throw new DomainError('VALIDATION_FAILED', problems.join('; '));
}

async function slugSafe<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // Only the workspace's own raffles are compared: a draft elsewhere with the same slug is not
    // revealed to this caller, and it only contends for the slug when it is published.
    if (isUniqueViolation(error, 'raffles_workspace_slug_unique')) throw new DomainError('SLUG_TAKEN', 'another raffle of this workspace already uses this slug');
    throw error;
  }
}

/**
 * A new draft (owners and admins). Nothing is announced until it is published, so no event is
 * recorded. `id` is only for imports and the demo, which carry their own (time-sortable) ids;
 * otherwise generated.
 */
export function createRaffle(
  db: Db,
  args: { actor: Principal; workspaceId: string; body: CreateRaffleBody; id?: string; clock?: Clock; chains?: readonly string[]; providers?: readonly string[] },
): Promise<RaffleRecord> {
  const now = (args.clock ?? systemClock).now();
  const b = args.body;
  return slugSafe(() =>
    db.transaction(async (tx) => {
      await requireWorkspaceAccess(tx, args.actor, args.workspaceId, 'manage');
      const shape: Shape = {
        mechanic: b.mechanic,
        allocationType: b.allocationType,
        requirements: withRequirementIds(b.requirements ?? []),
        settings: normalisedSettings({ ...DEFAULT_RAFFLE_SETTINGS, ...b.settings }),
        startsAt: date(b.startsAt) ?? null,
        endsAt: date(b.endsAt) ?? null,
      };
      refuse(await problemsOf(tx, args.workspaceId, shape, b.canonicalProjectId, { chains: args.chains, providers: args.providers }));
      return insertRaffle(tx, {
        // Spread only when set: buildRaffleRow spreads its input, so an undefined id would win.
        ...(args.id ? { id: args.id } : {}),
        workspaceId: args.workspaceId,
        slug: b.slug,
        title: b.title,
        visibility: b.visibility,
        spots: b.spots,
        description: b.description ?? null,
        chain: b.chain ?? null,
        allowAutoEntry: b.allowAutoEntry ?? false,
        canonicalProjectId: b.canonicalProjectId ?? null,
        ...shape,
        createdAt: now,
      });
    }),
  );
}

/** Changes a draft, scheduled or open raffle (owners and admins) within what its status still allows (see EDITABLE). */
export function editRaffle(
  db: Db,
  args: { actor: Principal; workspaceId: string; raffleId: string; body: UpdateRaffleBody; clock?: Clock; chains?: readonly string[]; providers?: readonly string[] },
): Promise<RaffleRecord> {
  const now = (args.clock ?? systemClock).now();
  const b = args.body;
  return slugSafe(() =>
    db.transaction(async (tx) => {
      const raffle = await lockRaffleAs(tx, args.actor, args);
      assertRaffleCan('update', raffle.status);
      const editable = EDITABLE[raffle.status]!;
      const frozen = (Object.keys(b) as (keyof UpdateRaffleBody)[]).filter((k) => editable !== 'all' && !editable.has(k));
      if (frozen.length > 0) throw new DomainError('RAFFLE_CANNOT_UPDATE', `${frozen.join(', ')} cannot change once a raffle is ${raffle.status}`);
      const shape: Shape = {
        mechanic: b.mechanic ?? raffle.mechanic,
        allocationType: b.allocationType ?? raffle.allocationType,
        requirements: b.requirements ? withRequirementIds(b.requirements) : raffle.requirements,
        settings: normalisedSettings({ ...DEFAULT_RAFFLE_SETTINGS, ...raffle.settings, ...b.settings }),
        startsAt: b.startsAt === undefined ? raffle.startsAt : date(b.startsAt)!,
        endsAt: b.endsAt === undefined ? raffle.endsAt : date(b.endsAt)!,
      };
      // Only requirements this edit sends are held to the chains and providers configured now.
      const readable = b.requirements ? { chains: args.chains, providers: args.providers } : {};
      const problems = await problemsOf(tx, args.workspaceId, shape, b.canonicalProjectId, readable);
      if (raffle.status !== 'draft' && b.endsAt !== undefined && shape.endsAt && shape.endsAt <= now) problems.push('endsAt must be in the future');
      if (raffle.status === 'scheduled' && b.startsAt !== undefined && (!shape.startsAt || shape.startsAt <= now)) {
        problems.push('startsAt of a scheduled raffle must stay in the future; open it instead');
      }
      refuse(problems);
      const { settings: _settings, requirements: _requirements, startsAt: _s, endsAt: _e, ...plain } = b;
      const updated = await updateRaffle(tx, raffle.id, { ...plain, ...shape, updatedAt: now } as Partial<RaffleRecord>);
      return updated!;
    }),
  );
}
