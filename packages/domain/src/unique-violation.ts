/**
 * True when `error` is Postgres's unique violation of `constraint`. Drizzle wraps driver errors,
 * so the cause chain is searched too. Creates rely on the constraint rather than a look-up first:
 * only the constraint is safe against a concurrent insert of the same slug.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, constraint_name: name, cause } = current as { code?: unknown; constraint_name?: unknown; cause?: unknown };
    if (code === '23505') return name === constraint;
    current = cause;
  }
  return false;
}
