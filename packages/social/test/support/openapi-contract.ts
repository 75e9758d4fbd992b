import { readFileSync } from 'node:fs';
import { Ajv, type AnySchema, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** ajv-formats is CommonJS: its function is the default export under some loaders, the module itself under others. */
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => void;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** An answer as it went over the wire. */
export type WireAnswer = { status: number; contentType: string | null; headers: Record<string, string>; body: string };

export type Operation = { method: 'get' | 'post'; path: string };

export type ContractChecker = {
  /** What is wrong with `answer` as an answer of `operation` in the document; empty when it fits. */
  violations(operation: Operation, answer: WireAnswer): string[];
};

/**
 * A provider's published OpenAPI document as a response validator: the response object for the
 * status (exact, then `4XX`-style, then `default`; `$ref`s followed), the schema of the media type
 * the answer declared, and the schemas of the headers the response declares (each required: the
 * providers send them on every such answer). Schemas are checked by Ajv in the document's own
 * dialect (3.1 is JSON Schema 2020-12; 3.0's `nullable` is Ajv's too), formats asserted, unknown
 * keywords (`discriminator`, `example`, `x-…`) ignored.
 */
export function loadContract(file: URL, id: string): ContractChecker {
  const document = JSON.parse(readFileSync(file, 'utf8')) as Json;
  const ajv = String(document.openapi).startsWith('3.1')
    ? new Ajv2020({ strict: false, allErrors: true, validateSchema: false })
    : new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  addOpenApiFormats(ajv);
  ajv.addSchema(document as AnySchema, id);
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string[]) => {
    const ref = `${id}#/${pointer.map(fragmentSegment).join('/')}`;
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      compiled.set(ref, validate);
    }
    return validate;
  };
  const check = (pointer: string[], value: unknown, what: string): string[] => {
    const validate = validatorAt(pointer);
    return validate(value) ? [] : [ajv.errorsText(validate.errors, { dataVar: what })];
  };

  return {
    violations(operation, answer) {
      const at = `${operation.method.toUpperCase()} ${operation.path} → ${answer.status}`;
      const declared = document.paths?.[operation.path]?.[operation.method];
      if (!declared) return [`${at}: no such operation in the document`];
      const status = String(answer.status);
      const key = [status, `${status[0]}XX`, 'default'].find((k) => declared.responses?.[k] !== undefined);
      if (!key) return [`${at}: not a documented response`];
      const [responsePointer, response] = resolve(document, ['paths', operation.path, operation.method, 'responses', key]);
      const problems: string[] = [];

      for (const [name, headerOrRef] of Object.entries<Json>(response.headers ?? {})) {
        const [headerPointer, header] = headerOrRef.$ref ? resolve(document, pointerOf(headerOrRef.$ref)) : [[...responsePointer, 'headers', name], headerOrRef];
        const value = answer.headers[name.toLowerCase()];
        if (value === undefined) problems.push(`${at}: header ${name} missing`);
        else problems.push(...check([...headerPointer, 'schema'], headerValue(value, header.schema), `${at} header ${name}`));
      }

      const content = response.content as Json | undefined;
      if (!content) return answer.body === '' ? problems : [...problems, `${at}: a body where the document declares none`];
      if (answer.contentType === null || content[answer.contentType] === undefined) {
        return [...problems, `${at}: content type ${answer.contentType} not among ${Object.keys(content).join(', ')}`];
      }
      let body: unknown;
      try {
        body = JSON.parse(answer.body);
      } catch {
        return [...problems, `${at}: the body is not JSON`];
      }
      return [...problems, ...check([...responsePointer, 'content', answer.contentType, 'schema'], body, `${at} body`)];
    },
  };
}

/** Follows `$ref`s (within the document) from a JSON pointer to the object it names. */
function resolve(document: Json, pointer: string[]): [string[], Json] {
  let node: Json = document;
  for (const segment of pointer) node = node?.[segment];
  if (node === undefined) throw new Error(`nothing at #/${pointer.join('/')}`);
  return node.$ref ? resolve(document, pointerOf(node.$ref)) : [pointer, node];
}

const pointerOf = (ref: string) => {
  if (!ref.startsWith('#/')) throw new Error(`only refs within the document are followed: ${ref}`);
  return ref.slice(2).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
};

/** JSON-pointer escaping, then URI escaping, as a `$ref` fragment needs (paths hold `/`, `{`, `@`). */
const fragmentSegment = (segment: string) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));

/** Header values are text; the document types them, so numbers and booleans are read as such first. */
function headerValue(value: string, schema: Json | undefined): unknown {
  const type = schema?.type;
  if ((type === 'integer' || type === 'number') && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** OpenAPI's numeric formats asserted (a float for int32 fails), and Discord's `snowflake` as its decimal id. */
function addOpenApiFormats(ajv: Ajv) {
  const int = (bits: number) => (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** (bits - 1);
  ajv.addFormat('int32', { type: 'number', validate: int(32) });
  ajv.addFormat('int64', { type: 'number', validate: int(64) });
  ajv.addFormat('float', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  ajv.addFormat('snowflake', /^(0|[1-9][0-9]*)$/);
}
