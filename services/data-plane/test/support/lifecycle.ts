import { randomBytes } from 'node:crypto';
import { PERSONAL_API_SCOPES, WORKSPACE_API_SCOPES, type ApiScope, type CreateRaffleBody } from '@raffle/contracts';
import { addWorkspaceMember, insertApiKey, insertUser, insertWorkspace, type Database, type NewUser } from '@raffle/db';
import { closeRaffle, createRaffle, drawRaffle, finalizeRaffle, publishRaffle, userPrincipal } from '@raffle/domain';
import { localBeaconChain, localBeaconRounds } from '@raffle/service-kit/testing';
import { registerSecret } from './log-scan.js';

const tag = () => randomBytes(5).toString('hex');

/**
 * A workspace of its own, with helpers that bring raffles through the real lifecycle (the domain
 * functions the dashboard calls) and mint users with personal keys: each test builds what it needs.
 */
export async function createLifecycleWorld(database: Database) {
  const { db } = database;
  const owner = await insertUser(db, { handle: `owner-${tag()}`, createdAt: new Date('2020-01-01T00:00:00Z') });
  const workspace = await insertWorkspace(db, { slug: `ws-${tag()}`, name: 'Lifecycle workspace' });
  await addWorkspaceMember(db, { workspaceId: workspace.id, userId: owner.id, role: 'owner' });
  /** The owner acting, as the dashboard's calls would. */
  const team = userPrincipal(owner.id);

  const key = async (kind: 'personal' | 'workspace', userId: string, scopes: readonly ApiScope[]) => {
    const { apiKey, record } = await insertApiKey(db, {
      kind,
      userId,
      workspaceId: kind === 'workspace' ? workspace.id : null,
      name: `${kind} key`,
      scopes: [...scopes],
    });
    return { apiKey: registerSecret(apiKey), keyId: record.id };
  };

  const world = {
    db,
    owner,
    team,
    workspace,
    workspaceKey: () => key('workspace', owner.id, WORKSPACE_API_SCOPES),

    /** A user with a personal key (every personal scope unless `scopes` says otherwise). */
    async entrant(input: Partial<NewUser> = {}, scopes: readonly ApiScope[] = PERSONAL_API_SCOPES) {
      const user = await insertUser(db, { handle: `u-${tag()}`, createdAt: new Date('2020-01-01T00:00:00Z'), ...input });
      const { apiKey, keyId } = await key('personal', user.id, scopes);
      return { user, apiKey, keyId, headers: { authorization: `Bearer ${apiKey}` } };
    },

    async member(role: 'owner' | 'admin' | 'member' = 'member') {
      const entrant = await world.entrant();
      await addWorkspaceMember(db, { workspaceId: workspace.id, userId: entrant.user.id, role });
      return entrant;
    },

    draft(body: Partial<CreateRaffleBody> = {}) {
      return createRaffle(db, {
        actor: team,
        workspaceId: workspace.id,
        body: { slug: `r-${tag()}`, title: 'A raffle', mechanic: 'raffle', allocationType: 'allowlist_gtd', visibility: 'public', spots: 3, ...body },
      });
    },

    /** Created and published with no startsAt: open now. */
    async open(body: Partial<CreateRaffleBody> = {}) {
      const raffle = await world.draft(body);
      return publishRaffle(db, { actor: team, raffleId: raffle.id, workspaceId: workspace.id });
    },

    // On the run's local beacon chain, as the services close raffles.
    close: (raffleId: string) => closeRaffle(db, { actor: team, raffleId, workspaceId: workspace.id, beacon: localBeaconChain() }),
    draw: (raffleId: string) => drawRaffle(db, { actor: team, raffleId, workspaceId: workspace.id, rounds: localBeaconRounds() }),
    finalize: (raffleId: string) => finalizeRaffle(db, { actor: team, raffleId, workspaceId: workspace.id }),
  };
  return world;
}

export type LifecycleWorld = Awaited<ReturnType<typeof createLifecycleWorld>>;
