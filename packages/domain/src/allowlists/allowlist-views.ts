import { PAGE_SIZES, type Allowlist, type AllowlistLeaf, type AllowlistProof } from '@raffle/contracts';
import {
  findAllowlistBuild,
  findAllowlistLeaves,
  findLiveWinOfUser,
  listAllowlistVersions,
  pageAllowlistLeaves,
  readAllowlistNodes,
  type AllowlistLeafRow,
  type AllowlistRaffleRow,
  type AllowlistVersionRow,
  type DbOrTx,
} from '@raffle/db';
import { getAddress } from 'viem';
import { DomainError } from '../errors.js';
import { cursorBinding, readPageRequest, toPage, type Page, type PageRequest } from '../pagination/index.js';
import { allowlistSettingsOf, hasAllowlist } from './allowlist-settings.js';
import { allowlistVersionView } from './publish-allowlists.js';
import { proofIndexes } from './tree-layout.js';

// What the routes show of a raffle's allowlist: the same for the data plane, the public route and
// the dashboard, which differ only in who may ask (their hooks) and whether leaves are shown.

const LEAF_ENCODING: Allowlist['leafEncoding'] = ['address', 'uint256'];

function statusOf(raffle: AllowlistRaffleRow, build: { notBefore: Date } | null, now: Date, published: boolean): Allowlist['status'] {
  if (!hasAllowlist(raffle)) return 'not_applicable';
  if (raffle.status !== 'finalized') return 'awaiting_finalize';
  if (build && build.notBefore > now) return 'awaiting_wallets';
  if (build || !published) return 'building';
  return 'published';
}

/** The allowlist's state, settings and every published version (newest first). */
export async function allowlistView(db: DbOrTx, raffle: AllowlistRaffleRow, now: Date): Promise<Allowlist> {
  const [versions, build] = await Promise.all([listAllowlistVersions(db, raffle.id), findAllowlistBuild(db, raffle.id)]);
  const settings = allowlistSettingsOf(raffle.settings);
  const shown = versions.map(allowlistVersionView);
  return {
    raffleId: raffle.id,
    slug: raffle.slug,
    status: statusOf(raffle, build, now, versions.length > 0),
    leafEncoding: LEAF_ENCODING,
    quantityPerWinner: settings.quantity,
    walletDeadline: settings.walletDeadline?.toISOString() ?? null,
    leavesPublic: settings.leavesPublic,
    current: shown[0] ?? null,
    versions: shown,
  };
}

async function versionToRead(db: DbOrTx, raffle: AllowlistRaffleRow, version: number | undefined): Promise<AllowlistVersionRow> {
  const versions = await listAllowlistVersions(db, raffle.id);
  if (versions.length === 0) throw new DomainError('ALLOWLIST_NOT_PUBLISHED', `the allowlist of ${raffle.slug} has no published version yet`);
  const chosen = version === undefined ? versions[0] : versions.find((v) => v.version === version);
  if (!chosen) throw new DomainError('NOT_FOUND', `the allowlist of ${raffle.slug} has no version ${version} (the latest is ${versions[0]!.version})`);
  return chosen;
}

/** Each leaf with its proof, read as sibling nodes of the stored tree in one query for the whole page. */
async function withProofs(db: DbOrTx, raffleId: string, version: number, leaves: readonly AllowlistLeafRow[]): Promise<AllowlistLeaf[]> {
  const paths = leaves.map((leaf) => proofIndexes(leaf.treeIndex));
  const nodes = await readAllowlistNodes(db, { raffleId, version, indexes: paths.flat() });
  return leaves.map((leaf, i) => ({ address: getAddress(leaf.address), quantity: leaf.quantity, proof: paths[i]!.map((index) => nodes.get(index)!) }));
}

const isAddressKey = (key: unknown): key is string => typeof key === 'string' && /^0x[0-9a-f]{40}$/.test(key);

/**
 * One page of a version's leaves with their proofs, in address order; the latest version unless
 * `version` names another. `address` narrows it to that wallet's leaf (an empty page if none).
 */
export async function allowlistLeafPage(
  db: DbOrTx,
  raffle: AllowlistRaffleRow,
  request: PageRequest & { version?: number; address?: string },
): Promise<Page<AllowlistLeaf> & { version: number; root: string }> {
  const chosen = await versionToRead(db, raffle, request.version);
  const read = readPageRequest(request, { binding: cursorBinding('allowlist-leaves', raffle.id, String(chosen.version)), rule: PAGE_SIZES.allowlistLeaves, isKey: isAddressKey });
  const rows = await pageAllowlistLeaves(db, { raffleId: raffle.id, version: chosen.version, after: read.after, limit: read.limit, address: request.address?.toLowerCase() });
  const page = toPage(rows, read, (row) => row.address, (row) => row);
  return { version: chosen.version, root: chosen.root, data: await withProofs(db, raffle.id, chosen.version, page.data), pagination: page.pagination };
}

/** The caller's own leaf of the current version, for a mint: 404 NOT_ON_ALLOWLIST when they hold none. */
export async function allowlistProofOf(db: DbOrTx, raffle: AllowlistRaffleRow, userId: string): Promise<AllowlistProof> {
  if (!hasAllowlist(raffle)) throw new DomainError('NOT_ON_ALLOWLIST', `${raffle.slug} is not an allowlist raffle (allocation ${raffle.allocationType})`);
  const current = await versionToRead(db, raffle, undefined);
  const win = await findLiveWinOfUser(db, { raffleId: raffle.id, userId });
  if (!win || win.status !== 'finalized') throw new DomainError('NOT_ON_ALLOWLIST', `you hold no finalized win of ${raffle.slug}`);
  const [leaf] = win.wallet ? await findAllowlistLeaves(db, { raffleId: raffle.id, version: current.version, addresses: [win.wallet.toLowerCase()] }) : [];
  if (!leaf) {
    throw new DomainError('NOT_ON_ALLOWLIST', win.wallet ? `your wallet is not on version ${current.version} of the allowlist yet` : `your win has no wallet on this raffle's chain; link one before the wallet deadline`);
  }
  const [withProof] = await withProofs(db, raffle.id, current.version, [leaf]);
  return { raffleId: raffle.id, slug: raffle.slug, version: current.version, root: current.root, leafEncoding: LEAF_ENCODING, ...withProof! };
}
