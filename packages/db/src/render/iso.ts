/** ISO 8601 for a set timestamp, `undefined` (an absent field) for an unset one. */
export const isoOrAbsent = (value: Date | null | undefined): string | undefined => value?.toISOString();

/** ISO 8601 for a set timestamp, `null` for an unset one: for the spec's "or null" fields. */
export const isoOrNull = (value: Date | null | undefined): string | null => value?.toISOString() ?? null;

/** A text column as an optional field: absent when null or empty. */
export const textOrAbsent = (value: string | null | undefined): string | undefined => (value ? value : undefined);

/** Postgres numeric(20,6) comes back as "1.000000"; the API shows the shortest decimal. */
export function decimalString(value: string): string {
  if (!value.includes('.')) return value;
  const trimmed = value.replace(/0+$/, '');
  return trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
}
