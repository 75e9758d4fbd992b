import { SHARED_SCHEMAS } from '@raffle/contracts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { LEADING_CODE, MANAGEMENT_STATUS_OF } from '../../src/error-codes.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;

/** Every contract schema by `$id`, in the OpenAPI 3.1 dialect. */
const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
addFormats(ajv);
for (const schema of SHARED_SCHEMAS) ajv.addSchema(schema as object);

export function schemaErrors(id: string, value: unknown): string[] {
  const validate = ajv.getSchema(id);
  if (!validate) throw new Error(`no schema ${id}`);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
}

/**
 * The management body has no `code`: each of its messages must lead with one (`CODE: …`) that
 * management answers with this status.
 */
export function messageCodeProblems(body: unknown, status: number): string[] {
  const messages = [(body as { message?: unknown } | null)?.message].flat();
  return messages.flatMap((message) => {
    const code = LEADING_CODE.exec(String(message))?.[1];
    if (code === undefined) return [`message ${JSON.stringify(message)} does not start with a code`];
    const codeStatus = MANAGEMENT_STATUS_OF[code as keyof typeof MANAGEMENT_STATUS_OF];
    return codeStatus === status ? [] : [`message code ${code} answers ${codeStatus ?? '(not in the catalogue)'}, not ${status}`];
  });
}

export type Seen = { statusCode: number; headers: Record<string, unknown>; body: string; json: () => unknown };

/**
 * The management error body, exactly: the status, the schema, no `code`, requestId = the header,
 * and every message led by a code that management answers with this status.
 */
export function expectManagementError(res: Seen, status: number): Record<string, unknown> {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = res.json() as Record<string, unknown>;
  expect(schemaErrors('ManagementErrorBody', body)).toEqual([]);
  expect(body).not.toHaveProperty('code');
  expect(body.statusCode).toBe(status);
  expect(body.requestId).toBe(res.headers['x-request-id']);
  expect(messageCodeProblems(body, status)).toEqual([]);
  expect(typeof body.path === 'string' && !body.path.includes('?')).toBe(true);
  return body;
}

export function expectSchema(id: string, value: unknown) {
  expect(schemaErrors(id, value)).toEqual([]);
}
