/** True for Postgres's unique_violation (23505) on the named constraint or index. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint_name?: string; cause?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === '23505' && e.constraint_name === constraint) return true;
  return e.cause !== undefined && isUniqueViolation(e.cause, constraint);
}
