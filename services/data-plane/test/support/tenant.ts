import { randomBytes } from 'node:crypto';
import { PERSONAL_API_SCOPES, WORKSPACE_API_SCOPES, type ApiScope } from '@raffle/contracts';
import {
  addWorkspaceMember,
  decimalString,
  insertApiKey,
  insertAllowlistVersion,
  insertEntry,
  insertProject,
  insertRaffle,
  insertUser,
  insertWin,
  insertWorkspace,
  listAllowlistWinners,
  schema,
  updateRaffle,
  type Database,
} from '@raffle/db';
import { allowlistFromWinners } from '@raffle/domain';
import { DRAW_ALGORITHM, drawCommitment, entriesDigest, entryLine } from '@raffle/sdk';
import { createHash } from 'node:crypto';
import { registerSecret } from './log-scan.js';

const DAY = 86_400_000;

export type TenantKeys = {
  personal: string;
  /** Personal keys each lacking exactly one scope. */
  personalWithout: Record<string, string>;
  workspace: string;
  workspaceWithout: Record<string, string>;
  otherWorkspace: string;
  revoked: string;
  expired: string;
};

export type Tenant = Awaited<ReturnType<typeof seedTenant>>;

/**
 * A random tenant: its own users, two workspaces, raffles, entries, wins, projects and keys.
 * Slugs and handles carry a random tag, so files and tests never collide.
 */
export async function seedTenant(database: Database, options: { entries?: number; publicRaffles?: number; projects?: number } = {}) {
  const tag = randomBytes(4).toString('hex');
  const base = Date.now() - 30 * DAY;
  // Real EVM addresses (the seed's other wallets are only labels): the owner's mint wallet, and
  // the second winner's, the finalized raffle's allowlist leaves.
  const evmAddress = (label: string) => `0x${createHash('sha256').update(`${label}:${tag}`).digest('hex').slice(0, 40)}`;
  const ownerWallet = evmAddress('owner');
  return database.db.transaction(async (tx) => {
    const owner = await insertUser(tx, {
      handle: `owner-${tag}`,
      displayName: 'Owner',
      wallets: [
        { chain: 'ethereum', address: `0x${tag}owner`, verified: true },
        { chain: 'ethereum', address: ownerWallet, verified: true },
      ],
      createdAt: new Date(base),
    });
    const outsider = await insertUser(tx, { handle: `outsider-${tag}`, createdAt: new Date(base) });
    const workspace = await insertWorkspace(tx, { slug: `ws-${tag}`, name: `Workspace ${tag}`, logoUrl: 'https://example.com/logo.png' });
    const otherWorkspace = await insertWorkspace(tx, { slug: `other-${tag}`, name: `Other ${tag}` });
    await addWorkspaceMember(tx, { workspaceId: workspace.id, userId: owner.id, role: 'owner' });
    await addWorkspaceMember(tx, { workspaceId: otherWorkspace.id, userId: outsider.id, role: 'owner' });

    const projects = [];
    for (let i = 0; i < (options.projects ?? 3); i++) {
      projects.push(
        await insertProject(tx, {
          workspaceId: workspace.id,
          slug: `project-${i}`,
          name: `Project ${i}`,
          logoUrl: i % 2 === 0 ? null : 'https://example.com/p.png',
          createdAt: new Date(base + i * 1000),
        }),
      );
    }

    const drawSeed = createHash('sha256').update(`seed:${tag}`).digest('hex');
    const published = (i: number) => new Date(base + DAY + i * 60_000);
    const finalized = await insertRaffle(tx, {
      workspaceId: workspace.id,
      slug: `finalized-${tag}`,
      title: 'Finalized raffle',
      mechanic: 'raffle',
      allocationType: 'allowlist_gtd',
      visibility: 'public',
      status: 'finalized',
      spots: 3,
      chain: 'ethereum',
      canonicalProjectId: projects[0]!.id,
      requirements: [{ id: 'req_wallet', type: 'wallet_connected', label: 'Connect an Ethereum wallet', params: { chain: 'ethereum' } }],
      publishedAt: published(0),
      openedAt: published(0),
      closedAt: published(1),
      drawnAt: published(2),
      finalizedAt: published(3),
      drawSeed,
      drawCommitment: drawCommitment(Buffer.from(drawSeed, 'hex')),
      settings: { autoDraw: false, autoFinalize: false, excludeFlaggedDuplicates: false, allowlistQuantity: 1, allowlistPublic: true, walletDeadline: null },
      createdAt: new Date(base),
    });
    const privateRaffle = await insertRaffle(tx, {
      workspaceId: workspace.id,
      slug: `private-${tag}`,
      title: 'Members only',
      mechanic: 'fcfs',
      allocationType: 'airdrop',
      visibility: 'private',
      status: 'open',
      spots: 10,
      publishedAt: published(4),
      openedAt: published(4),
      createdAt: new Date(base + 1),
    });
    const draft = await insertRaffle(tx, {
      workspaceId: workspace.id,
      slug: `draft-${tag}`,
      title: 'Draft',
      mechanic: 'collection',
      allocationType: 'custom',
      visibility: 'public',
      status: 'draft',
      spots: 5,
      createdAt: new Date(base + 2),
    });
    const publicRaffles = [finalized];
    for (let i = 0; i < (options.publicRaffles ?? 0); i++) {
      publicRaffles.push(
        await insertRaffle(tx, {
          workspaceId: otherWorkspace.id,
          slug: `public-${i}-${tag}`,
          title: `Public ${i}`,
          mechanic: 'raffle',
          allocationType: 'airdrop',
          visibility: 'public',
          status: 'open',
          spots: 1,
          publishedAt: published(10 + (i % 7)),
          openedAt: published(10),
          createdAt: new Date(base + 10 + i),
        }),
      );
    }
    const foreignRaffle = await insertRaffle(tx, {
      workspaceId: otherWorkspace.id,
      slug: `foreign-${tag}`,
      title: 'Another workspace',
      mechanic: 'raffle',
      allocationType: 'physical',
      visibility: 'unlisted',
      status: 'open',
      spots: 2,
      publishedAt: published(5),
      openedAt: published(5),
      createdAt: new Date(base + 3),
    });

    // Open to every personal key (unlisted, in the other workspace, so no list of this tenant shows
    // it): the entry actions have a raffle to enter and withdraw from.
    const entrable = await insertRaffle(tx, {
      workspaceId: otherWorkspace.id,
      slug: `entrable-${tag}`,
      title: 'Open for entries',
      mechanic: 'raffle',
      allocationType: 'allowlist_gtd',
      visibility: 'unlisted',
      status: 'open',
      spots: 5,
      publishedAt: published(6),
      openedAt: published(6),
      createdAt: new Date(base + 4),
    });

    const entrants = [owner];
    const entryCount = options.entries ?? 12;
    for (let i = 1; i < entryCount; i++) {
      entrants.push(await insertUser(tx, { handle: `entrant-${i}-${tag}`, createdAt: new Date(base) }));
    }
    const entries = [];
    for (let i = 0; i < entrants.length; i++) {
      entries.push(
        await insertEntry(tx, {
          raffle: finalized,
          userId: entrants[i]!.id,
          status: i % 5 === 4 ? 'invalid' : 'valid',
          statusReason: i % 5 === 4 ? 'requirements not met' : null,
          source: i === 0 ? 'web' : 'api',
          walletSnapshot: `0xwallet${i}`,
          duplicateFlags: i === 3 ? { ipReuse: ['ent_x'] } : {},
          createdAt: new Date(published(0).getTime() + i * 1000),
          evaluations: [{ requirementId: 'req_wallet', type: 'wallet_connected', label: 'Connect an Ethereum wallet', passed: i % 5 !== 4, evidence: { address: `0xwallet${i}` } }],
        }),
      );
    }
    // The finalized raffle's draw snapshot, so its proof is served. The seeded wins below are not
    // what this seed selects: draw-proof.test.ts checks real draws; this one only gives shapes.
    const eligible = entries
      .filter((e) => e.status === 'valid')
      .map((e) => ({ id: e.id, userId: e.userId, weight: decimalString(e.entryWeight) }))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    await tx.insert(schema.raffleDrawSnapshots).values({
      raffleId: finalized.id,
      algorithm: DRAW_ALGORITHM,
      entryCount: eligible.length,
      entryLines: eligible.map(entryLine).join(''),
    });
    await updateRaffle(tx, finalized.id, { entriesDigest: entriesDigest(eligible), updatedAt: finalized.updatedAt });

    const wins = [];
    for (let position = 1; position <= 3 && position <= entries.length; position++) {
      const entry = entries[position - 1]!;
      wins.push(
        await insertWin(
          tx,
          {
            raffleId: finalized.id,
            entryId: entry.id,
            userId: entry.userId,
            position,
            source: 'draw',
            status: position === 3 ? 'selected' : 'finalized',
            walletSnapshot: entry.walletSnapshot,
            // The two finalized winners named EVM wallets: the allowlist below lists them.
            allowlistWallet: position === 1 ? ownerWallet : position === 2 ? evmAddress('winner-2') : null,
            identitySnapshot: { handle: `winner-${position}`, wallets: [] },
            deliveryStatus: 'pending',
            deliveryNote: null,
            selectedAt: published(2),
            finalizedAt: position === 3 ? null : published(3),
            disqualifiedAt: null,
            replacedAt: null,
            deliveredAt: null,
          },
          finalized,
        ),
      );
    }

    // The finalized raffle's allowlist, published (version 1), with public leaves.
    const allowlist = allowlistFromWinners(await listAllowlistWinners(tx, finalized.id), 1);
    await insertAllowlistVersion(tx, { raffleId: finalized.id, root: allowlist.root, unlistedWinners: allowlist.unlistedWinners, reason: 'finalized', nodes: allowlist.nodes, leaves: allowlist.leaves, publishedAt: published(4) });

    // An allowlist raffle whose winners may still name their wallet: the owner won it.
    const naming = await insertRaffle(tx, {
      workspaceId: otherWorkspace.id,
      slug: `naming-${tag}`,
      title: 'Name your mint wallet',
      mechanic: 'fcfs',
      allocationType: 'allowlist_fcfs',
      visibility: 'unlisted',
      status: 'finalized',
      spots: 1,
      chain: 'ethereum',
      settings: { autoDraw: false, autoFinalize: false, excludeFlaggedDuplicates: false, allowlistQuantity: 2, allowlistPublic: false, walletDeadline: new Date(Date.now() + 365 * DAY).toISOString() },
      publishedAt: published(7),
      openedAt: published(7),
      closedAt: published(8),
      finalizedAt: published(9),
      createdAt: new Date(base + 5),
    });
    const namingEntry = await insertEntry(tx, { raffle: naming, userId: owner.id, status: 'valid', source: 'api', walletSnapshot: `0x${tag}owner`, createdAt: published(7) });
    const namingWin = await insertWin(
      tx,
      {
        raffleId: naming.id,
        entryId: namingEntry.id,
        userId: owner.id,
        position: 1,
        source: 'fcfs',
        status: 'finalized',
        walletSnapshot: namingEntry.walletSnapshot,
        identitySnapshot: { handle: owner.handle, wallets: [] },
        deliveryStatus: 'pending',
        deliveryNote: null,
        selectedAt: published(7),
        finalizedAt: published(9),
        disqualifiedAt: null,
        replacedAt: null,
        deliveredAt: null,
      },
      naming,
    );

    const key = async (kind: 'personal' | 'workspace', scopes: readonly ApiScope[], extra: { workspaceId?: string; expiresAt?: Date; revokedAt?: Date; userId?: string } = {}) => {
      const { apiKey } = await insertApiKey(tx, {
        kind,
        userId: extra.userId ?? owner.id,
        workspaceId: extra.workspaceId ?? (kind === 'workspace' ? workspace.id : null),
        name: `${kind} key`,
        scopes: [...scopes],
        expiresAt: extra.expiresAt,
        revokedAt: extra.revokedAt,
      });
      return registerSecret(apiKey);
    };
    const without = async (kind: 'personal' | 'workspace', all: readonly ApiScope[]) => {
      const keys: Record<string, string> = {};
      for (const scope of all) keys[scope] = await key(kind, all.filter((s) => s !== scope));
      return keys;
    };
    const keys: TenantKeys = {
      personal: await key('personal', PERSONAL_API_SCOPES),
      personalWithout: await without('personal', PERSONAL_API_SCOPES),
      workspace: await key('workspace', WORKSPACE_API_SCOPES),
      workspaceWithout: await without('workspace', WORKSPACE_API_SCOPES),
      otherWorkspace: await key('workspace', WORKSPACE_API_SCOPES, { workspaceId: otherWorkspace.id, userId: outsider.id }),
      revoked: await key('personal', PERSONAL_API_SCOPES, { revokedAt: new Date(Date.now() - 1000) }),
      expired: await key('personal', PERSONAL_API_SCOPES, { expiresAt: new Date(Date.now() - 1000) }),
    };

    return {
      tag,
      owner,
      ownerWallet,
      outsider,
      workspace,
      otherWorkspace,
      projects,
      finalized,
      privateRaffle,
      draft,
      foreignRaffle,
      entrable,
      naming,
      namingWin,
      publicRaffles,
      entries,
      wins,
      keys,
    };
  });
}
