import { STATUS_CODES } from 'node:http';
import { EXAMPLE_DATE_TIME, idExample, STRING_BY_FIELD, STRING_BY_FORMAT } from './example-values.js';
import { jsonMedia, operationsOf, type JsonObject, type OpenApiDocumentJson } from './document-types.js';

type Context = {
  components: Record<string, JsonObject>;
  /** The schema component being walked, which names what an `id` identifies. */
  component?: string;
  /** Request bodies show their optional fields too; responses show what is always there. */
  withOptional: boolean;
  depth: number;
};

const COMPONENT_REF = '#/components/schemas/';
const MAX_DEPTH = 24;

/**
 * An example value for a schema: the schema's own `examples`/`example`/`const`/`default` when it
 * has one, else a value built from its type, format and property names (example-values.ts).
 * Every example is validated against its schema by the document tests, so none can drift.
 */
export function exampleOf(schema: JsonObject | undefined, field: string | undefined, context: Context): unknown {
  if (!schema || context.depth > MAX_DEPTH) return undefined;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith(COMPONENT_REF)) {
    const name = schema.$ref.slice(COMPONENT_REF.length);
    return exampleOf(context.components[name], field, { ...context, component: name, depth: context.depth + 1 });
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part: JsonObject) => exampleOf(part, field, context));
    return parts.every(isObject) ? Object.assign({}, ...parts) : parts.find((part: unknown) => part !== undefined);
  }
  const branches: JsonObject[] | undefined = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    const nonNull = branches.find((branch) => branch.type !== 'null') ?? branches[0];
    return exampleOf(nonNull, field, context);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return objectExample(schema, context);
    case 'array': {
      const item = exampleOf(schema.items, singular(field), { ...context, depth: context.depth + 1 });
      return item === undefined ? [] : Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
    }
    case 'string':
      return stringExample(schema, field, context);
    case 'integer':
    case 'number':
      return numberExample(schema);
    case 'boolean':
      return schema.default ?? false;
    case 'null':
      return null;
    default:
      return schema.properties ? objectExample(schema, context) : undefined;
  }
}

function objectExample(schema: JsonObject, context: Context): JsonObject {
  const required = new Set<string>(schema.required ?? []);
  const result: JsonObject = {};
  for (const [name, property] of Object.entries<JsonObject>(schema.properties ?? {})) {
    if (!required.has(name) && !(context.withOptional && context.depth <= 1)) continue;
    const value = exampleOf(property, name, { ...context, depth: context.depth + 1 });
    if (value !== undefined) result[name] = value;
  }
  return result;
}

function stringExample(schema: JsonObject, field: string | undefined, context: Context): string {
  const byFormat = schema.format ? STRING_BY_FORMAT[schema.format] : undefined;
  const byName = field ? (idExample(field, context.component) ?? STRING_BY_FIELD[field]) : undefined;
  const value = byName ?? byFormat ?? (field?.endsWith('At') ? EXAMPLE_DATE_TIME : undefined) ?? schema.default ?? 'text';
  const max = schema.maxLength ?? Infinity;
  const padded = value.length < (schema.minLength ?? 0) ? value.padEnd(schema.minLength, 'x') : value;
  return padded.length > max ? padded.slice(0, max) : padded;
}

function numberExample(schema: JsonObject): number {
  if (typeof schema.default === 'number') return schema.default;
  const low = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1;
  const high = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
  return Math.min(Math.max(low, 3), high);
}

const singular = (field: string | undefined) => (field?.endsWith('s') ? field.slice(0, -1) : field);
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A readable message for a code: `RAFFLE_NOT_FOUND` → `raffle not found`. */
const messageOf = (code: string | undefined) => (code ? code.toLowerCase().replaceAll('_', ' ') : 'the request failed');

/** `/api/v1/raffles/{slug}` with each parameter's example filled in, as an error body's `path`. */
function examplePath(path: string, parameters: JsonObject[]): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => String(parameters.find((p) => p.in === 'path' && p.name === name)?.example ?? name));
}

export type ExampleOptions = {
  /** A catalogue code of the status, for error responses whose operation names none (statuses the spec reserves). */
  codeOfStatus?: (status: string) => string | undefined;
};

/** An error body example names the response's status, its first code, and the operation's path. */
function errorExample(body: JsonObject, status: string, response: JsonObject, path: string, options: ExampleOptions): JsonObject {
  const declared: string[] = response['x-error-codes'] ?? [];
  const code = declared[0] ?? options.codeOfStatus?.(status);
  const example: JsonObject = { ...body, statusCode: Number(status), error: STATUS_CODES[Number(status)] ?? 'Error', path };
  if ('code' in body) {
    if (code) example.code = code;
    example.message = messageOf(example.code);
  } else example.message = code ? `${code}: ${messageOf(code)}` : messageOf(undefined);
  return example;
}

const isErrorBody = (value: unknown): value is JsonObject => isObject(value) && 'statusCode' in value && 'timestamp' in value;

/**
 * Every parameter, request body and JSON response of the document gets an `example` (OpenAPI's
 * media-type / parameter `example`, which redocly checks against the schema and documentation
 * tools show), unless its route gave one.
 */
export function addExamples(document: OpenApiDocumentJson, options: ExampleOptions = {}) {
  const components = document.components.schemas ?? {};
  for (const { path, operation } of operationsOf(document)) {
    const parameters: JsonObject[] = operation.parameters ?? [];
    for (const parameter of parameters) {
      parameter.example ??= exampleOf(parameter.schema, parameter.name, { components, withOptional: false, depth: 0 });
      if (parameter.example === undefined) delete parameter.example;
    }
    const body = jsonMedia(operation.requestBody);
    if (body && body.example === undefined && body.examples === undefined) {
      body.example = exampleOf(body.schema, undefined, { components, withOptional: true, depth: 0 });
    }
    for (const [status, response] of Object.entries<JsonObject>(operation.responses ?? {})) {
      const media = jsonMedia(response);
      if (!media || media.example !== undefined || media.examples !== undefined) continue;
      const value = exampleOf(media.schema, undefined, { components, withOptional: false, depth: 0 });
      media.example = isErrorBody(value) ? errorExample(value, status, response, examplePath(path, parameters), options) : value;
    }
  }
}
