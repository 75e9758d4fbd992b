/**
 * Leading characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection"):
 * `=`, `+`, `-`, `@`, and the tab and carriage return some of them skip before looking for one.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/** RFC 4180: a field with a separator, a quote or a line break is quoted. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV field. What a value is decides how it is written:
 * - a string is text, and text that opens like a formula gets a leading `'`, so a spreadsheet
 *   shows it instead of running it. That includes text such as `-2`: a text column that
 *   happens to hold a number is still text, and the quote shows it was;
 * - a finite number is written as is (`-2` stays `-2`): a number is never a formula, so numeric
 *   columns are not mangled. Callers keep numbers as numbers to get this (the spec's integers are);
 * - an object or array is its compact JSON text, in one field (and then treated as text);
 * - null and undefined are an empty field, as an absent optional field of the JSON resource.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const inert = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(inert) ? `"${inert.replaceAll('"', '""')}"` : inert;
}

/** One record as a CSV line, CRLF-terminated (RFC 4180). */
export const csvLine = (values: readonly unknown[]): string => {
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i === 0 ? '' : ',') + csvCell(values[i]);
  return `${line}\r\n`;
};
