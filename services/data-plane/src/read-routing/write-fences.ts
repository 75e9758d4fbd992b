/**
 * Where each caller's latest write ends in the primary's WAL, so that caller's next read goes
 * where it can see it (read-your-writes): the replica once it has replayed past the fence, the
 * primary before. Fences the replica has passed are forgotten; the map never grows past
 * `maxCallers` (the oldest fence goes first, and that caller's read may then be stale by at most
 * the staleness bound).
 */
export type WriteFences = {
  record(caller: string, position: bigint): void;
  fenceOf(caller: string): bigint | null;
  /** The replica has replayed up to `position`: fences at or before it no longer matter. */
  forgetReplayed(position: bigint): void;
  size(): number;
};

export function createWriteFences(maxCallers = 100_000): WriteFences {
  const fences = new Map<string, bigint>();
  return {
    record(caller, position) {
      const known = fences.get(caller);
      if (known !== undefined && known >= position) return;
      // Re-inserted, so the Map's order stays oldest write first.
      fences.delete(caller);
      fences.set(caller, position);
      if (fences.size > maxCallers) fences.delete(fences.keys().next().value as string);
    },
    fenceOf: (caller) => fences.get(caller) ?? null,
    forgetReplayed(position) {
      // Oldest first, and fences mostly grow in that order: stop at the first the replica has not
      // passed. One left behind is harmless (a passed fence sends nobody to the primary).
      for (const [caller, fence] of fences) {
        if (fence > position) break;
        fences.delete(caller);
      }
    },
    size: () => fences.size,
  };
}
