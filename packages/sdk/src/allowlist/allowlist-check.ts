import type { AllowlistLeaf, AllowlistVersion, DrawProof } from '../client/api-types.js';
import { allowlistRoot } from './allowlist-tree.js';
import { verifyAllowlistProof } from './allowlist-proof.js';

/**
 * What can be checked offline of a published allowlist version whose leaves are public, with the
 * raffle's draw proof: the proofs, the root, and the number of winners. The proof lists entries,
 * not wallets, so which wallet each winner named cannot be checked; how many were listed can.
 */

/** One claim: held (`ok`), refuted, or not checkable here (`ok: null`, e.g. no draw proof). */
export type AllowlistCheck = { check: 'proofs' | 'root' | 'leaf count' | 'quantities' | 'winners'; ok: boolean | null; text: string };

export type AllowlistCheckInput = {
  /** The version checked, as the allowlist lists it (root, count, unlistedWinners, publishedAt). */
  version: AllowlistVersion;
  /** Every leaf of that version, as served. */
  leaves: readonly AllowlistLeaf[];
  /** The raffle's `quantityPerWinner`. */
  quantityPerWinner: number;
  /** The raffle's draw proof; null for a raffle with none (not a weighted draw, not drawn). */
  drawProof: DrawProof | null;
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const atOrBefore = (time: string, moment: number) => Date.parse(time) <= moment;

/**
 * The winners holding a position when the version was published, by the proof: the draw's winners,
 * plus the rerolls selected by then, minus the wins disqualified by then. The platform builds a new
 * version after each such change, so the version published after a change counts it.
 */
export function winnersHoldingAt(proof: DrawProof, publishedAt: string): number {
  const moment = Date.parse(publishedAt);
  const rerolled = (proof.rerolledWinners ?? []).filter((w) => atOrBefore(w.selectedAt, moment)).length;
  const disqualified = (proof.disqualifiedWinners ?? []).filter((w) => atOrBefore(w.disqualifiedAt, moment)).length;
  return proof.winners.length + rerolled - disqualified;
}

function proofCheck(version: AllowlistVersion, leaves: readonly AllowlistLeaf[]): AllowlistCheck {
  const failing = leaves.filter((leaf) => {
    try {
      return !verifyAllowlistProof({ root: version.root, address: leaf.address, quantity: leaf.quantity, proof: leaf.proof });
    } catch {
      return true;
    }
  });
  if (failing.length === 0) return { check: 'proofs', ok: true, text: `all ${plural(leaves.length, 'leaf', 'leaves')} verify against ${version.root}` };
  const named = failing.slice(0, 3).map((l) => l.address).join(', ');
  return { check: 'proofs', ok: false, text: `${failing.length} of ${leaves.length} do not verify against the root (${named}${failing.length > 3 ? ', …' : ''})` };
}

function rootCheck(version: AllowlistVersion, leaves: readonly AllowlistLeaf[]): AllowlistCheck {
  let rebuilt: string;
  try {
    rebuilt = allowlistRoot(leaves);
  } catch (error) {
    return { check: 'root', ok: false, text: `the leaves do not make a tree: ${(error as Error).message}` };
  }
  return rebuilt === version.root.toLowerCase()
    ? { check: 'root', ok: true, text: `rebuilt from the leaves: ${rebuilt}` }
    : { check: 'root', ok: false, text: `the leaves make ${rebuilt}, not the published ${version.root}` };
}

/** Each leaf's quantity is the per-winner quantity times the winners who named that wallet. */
function winnersListed(leaves: readonly AllowlistLeaf[], quantityPerWinner: number): { listed: number; odd: AllowlistLeaf[] } {
  const per = BigInt(quantityPerWinner);
  let listed = 0n;
  const odd: AllowlistLeaf[] = [];
  for (const leaf of leaves) {
    const quantity = BigInt(leaf.quantity);
    if (quantity % per !== 0n || quantity === 0n) odd.push(leaf);
    else listed += quantity / per;
  }
  return { listed: Number(listed), odd };
}

/** Every check of `input`, in the order the CLI prints them. */
export function checkAllowlistVersion(input: AllowlistCheckInput): AllowlistCheck[] {
  const { version, leaves, quantityPerWinner, drawProof } = input;
  const checks = [proofCheck(version, leaves), rootCheck(version, leaves)];
  checks.push(
    leaves.length === version.count
      ? { check: 'leaf count', ok: true, text: `${plural(leaves.length, 'leaf', 'leaves')}, as published` }
      : { check: 'leaf count', ok: false, text: `${leaves.length} served, the version says ${version.count}` },
  );
  const { listed, odd } = winnersListed(leaves, quantityPerWinner);
  checks.push(
    odd.length === 0
      ? { check: 'quantities', ok: true, text: `each a multiple of ${quantityPerWinner} per winner: ${plural(listed, 'winner')} listed` }
      : { check: 'quantities', ok: false, text: `${odd.length} not a multiple of ${quantityPerWinner} per winner (${odd[0]!.address}: ${odd[0]!.quantity})` },
  );
  if (!drawProof) {
    checks.push({ check: 'winners', ok: null, text: 'no draw proof (not a drawn raffle): the number of winners is not checked' });
    return checks;
  }
  const holding = winnersHoldingAt(drawProof, version.publishedAt);
  const counted = listed + version.unlistedWinners;
  checks.push({
    check: 'winners',
    ok: odd.length === 0 && counted === holding,
    text: `${listed} listed + ${version.unlistedWinners} without a wallet = ${counted}; the draw proof has ${holding} holding a position at ${version.publishedAt}`,
  });
  return checks;
}
