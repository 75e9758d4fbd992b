/**
 * A database refusal that a client's input caused, should one get past validation (which is
 * meant to catch all of them first): answered 400 or 409 with a message of our own, never 500.
 * Anything else the database refuses is the server's fault and stays a 500.
 */
export type InputCausedFailure = { status: 400 | 409; message: string };

const BY_SQLSTATE: Record<string, InputCausedFailure> = {
  '23505': { status: 409, message: 'the request conflicts with an existing record' },
  '23503': { status: 409, message: 'the request refers to a record that does not exist, or one that is still referred to' },
  '23514': { status: 400, message: 'a value is outside what the field accepts' },
  '23502': { status: 400, message: 'a required value is missing' },
  '54000': { status: 400, message: 'a value is too large to store' },
};

/** Class 22, data exception: out-of-range numbers and dates, bad encodings, text too long. */
const DATA_EXCEPTION: InputCausedFailure = { status: 400, message: 'a value is outside the range or form that can be stored' };

const MAX_CAUSE_DEPTH = 8;

export function inputCausedFailure(error: unknown): InputCausedFailure | null {
  let current = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null; depth++) {
    const { code, severity, cause } = current as { code?: unknown; severity?: unknown; cause?: unknown };
    // Postgres' own errors carry a severity; a Node errno or a driver code never looks like this.
    if (typeof code === 'string' && typeof severity === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return BY_SQLSTATE[code] ?? (code.startsWith('22') ? DATA_EXCEPTION : null);
    }
    current = cause;
  }
  return null;
}
