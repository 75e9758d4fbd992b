/** A read that took longer than its budget: the caller treats it as silence, not as a defect. */
export class OverBudget extends Error {}

/** Resolves with the work's value, or rejects with OverBudget once `ms` passed (the work is left to finish on its own). */
export function withinBudget<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OverBudget()), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
