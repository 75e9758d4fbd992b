/** The years a date-time may name, in UTC: what Postgres stores and ISO 8601 prints in four digits. */
export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

/**
 * Narrows ajv-formats' `date-time` to instants in years 1–9999 (UTC), so a date Postgres would
 * refuse ("date/time field value out of range") is a 400 at validation, never a database error.
 * The offset counts: `0001-01-01T00:00:00+01:00` is still year 0 in UTC. Pass as the `onCreate`
 * of Fastify's `ajv` option, which runs after ajv-formats is added.
 */
/** The part of an Ajv instance this needs (service-kit does not depend on ajv itself). */
type AjvFormats = { formats: Record<string, unknown>; addFormat(name: string, format: { type: 'string'; validate: (value: string) => boolean }): unknown };

export function restrictDateTimesToStorableYears(ajv: AjvFormats): void {
  const original = ajv.formats['date-time'];
  const validate = original !== null && typeof original === 'object' && 'validate' in original ? original.validate : original;
  if (typeof validate !== 'function') throw new Error('ajv has no date-time format to narrow: add ajv-formats first');
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (value: string) => (validate as (v: string) => boolean)(value) && isStorableInstant(value),
  });
}

export function isStorableInstant(value: string): boolean {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return false;
  const year = new Date(time).getUTCFullYear();
  return year >= MIN_YEAR && year <= MAX_YEAR;
}
