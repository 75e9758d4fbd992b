import { SHARED_SCHEMAS } from '@raffle/contracts';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { SanitizedEntryPageSchema } from '../../src/routes/entries/index.js';
import { PublicRafflePageSchema } from '../../src/routes/raffles/index.js';
import { WinPageSchema } from '../../src/routes/wins/index.js';
import { ProjectPageSchema } from '../../src/routes/workspace-projects/index.js';
import { WorkspaceEntryPageSchema, WorkspaceRafflePageSchema } from '../../src/routes/workspace-raffles/index.js';

/**
 * One JSON Schema 2020-12 validator (the dialect of OpenAPI 3.1) holding every contract schema
 * by its `$id`, so a test checks a response exactly as an OpenAPI 3.1 client would.
 *
 * TypeBox emits plain JSON Schema (its Kind/Optional markers are symbols, invisible to Ajv);
 * `strict: true` makes Ajv reject any keyword 2020-12 does not know, so a schema TypeBox
 * rendered in a draft-07-only form would fail here at import time, not pass silently.
 */
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;

/** The page envelopes the routes register next to the contracts' own schemas. */
export const ROUTE_PAGE_SCHEMAS = [
  PublicRafflePageSchema,
  SanitizedEntryPageSchema,
  WinPageSchema,
  WorkspaceRafflePageSchema,
  WorkspaceEntryPageSchema,
  ProjectPageSchema,
] as const;

export function createContractAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  for (const schema of [...SHARED_SCHEMAS, ...ROUTE_PAGE_SCHEMAS]) ajv.addSchema(schema as object);
  return ajv;
}

export const contractAjv = createContractAjv();

export type SchemaOrId = string | { $id?: string } | Record<string, unknown>;

const compiled = new WeakMap<object, ValidateFunction>();

/** The validator of a registered `$id`, or of an anonymous schema (which may `$ref` registered ids). */
export function validatorFor(schemaOrId: SchemaOrId): ValidateFunction {
  if (typeof schemaOrId === 'string') {
    const validate = contractAjv.getSchema(schemaOrId);
    if (!validate) throw new Error(`no contract schema with $id "${schemaOrId}"`);
    return validate;
  }
  const id = (schemaOrId as { $id?: unknown }).$id;
  if (typeof id === 'string') {
    const registered = contractAjv.getSchema(id);
    if (registered) return registered;
  }
  let validate = compiled.get(schemaOrId);
  if (!validate) {
    validate = contractAjv.compile(schemaOrId);
    compiled.set(schemaOrId, validate);
  }
  return validate;
}

const preview = (value: unknown) => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

/** One line per Ajv error: where, what, and the offending value. */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined, value: unknown): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath || '(root)';
    let actual: unknown = value;
    for (const part of e.instancePath.split('/').slice(1)) {
      const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
      actual = actual !== null && typeof actual === 'object' ? (actual as Record<string, unknown>)[key] : undefined;
    }
    return `${where} ${e.message ?? e.keyword} ${JSON.stringify(e.params)} (value: ${preview(actual)}; schema: ${e.schemaPath})`;
  });
}

/** Fails with every schema error, readable, when `value` does not match. */
export function expectMatchesSchema(schemaOrId: SchemaOrId, value: unknown, context = ''): void {
  const validate = validatorFor(schemaOrId);
  if (validate(value)) return;
  const name = typeof schemaOrId === 'string' ? schemaOrId : String((schemaOrId as { $id?: unknown }).$id ?? 'inline schema');
  const lines = describeErrors(validate.errors, value);
  expect.fail(`${context ? `${context}: ` : ''}value does not match ${name}:\n  ${lines.join('\n  ')}\nvalue: ${preview(value)}`);
}

/** Non-throwing form for property tests that collect several findings. */
export function schemaErrors(schemaOrId: SchemaOrId, value: unknown): string[] {
  const validate = validatorFor(schemaOrId);
  return validate(value) ? [] : describeErrors(validate.errors, value);
}
