import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** ajv-formats is CommonJS: its function is the default export under some loaders, the module itself under others. */
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
type Document = { paths: Record<string, Record<string, Json>>; components?: Json; webhooks?: Record<string, Record<string, Json>> };

const COMPONENT_REF = '#/components/schemas/';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The id the components are registered under, once per document: each example's schema refers into it. */
const COMPONENTS_ID = 'openapi-components';

/** Component refs rewritten to the registered components' `$defs`. */
function localized(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(localized);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_REF) ? `${COMPONENTS_ID}#/$defs/${value.slice(COMPONENT_REF.length)}` : localized(value),
    ]),
  );
}

/** Every `examples` array inside a schema, with the schema that declares it. */
function* declaredExamples(schema: unknown, where: string): Generator<{ where: string; schema: Json; value: unknown }> {
  if (Array.isArray(schema)) {
    for (const [i, item] of schema.entries()) yield* declaredExamples(item, `${where}/${i}`);
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  const object = schema as Json;
  if (Array.isArray(object.examples)) for (const value of object.examples) yield { where, schema: object, value };
  for (const [key, value] of Object.entries(object)) if (key !== 'examples' && key !== 'example') yield* declaredExamples(value, `${where}/${key}`);
}

/**
 * Every example of an OpenAPI 3.1 document checked against its schema with Ajv (JSON Schema
 * 2020-12, formats asserted): parameter and media-type examples of the paths and webhooks, and
 * the `examples` the component schemas declare. Returns one line per example that does not fit.
 */
export function openApiExampleViolations(document: Document): string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: localized(document.components?.schemas ?? {}) as Json });
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  const violations: string[] = [];
  const check = (where: string, schema: Json | undefined, value: unknown) => {
    if (!schema || value === undefined) return;
    const key = JSON.stringify(schema);
    const validate = compiled.get(key) ?? ajv.compile(localized(schema) as Json);
    compiled.set(key, validate);
    if (!validate(value)) violations.push(`${where}: ${ajv.errorsText(validate.errors)}`);
  };
  const checkMedia = (where: string, media: Json | undefined) => {
    if (!media) return;
    check(where, media.schema, media.example);
    for (const [name, example] of Object.entries<Json>(media.examples ?? {})) check(`${where} (${name})`, media.schema, example.value);
  };

  const items = [...Object.entries(document.paths), ...Object.entries(document.webhooks ?? {}).map(([name, item]) => [`webhook ${name}`, item] as const)];
  for (const [path, item] of items) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const at = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) check(`${at} parameter ${parameter.name}`, parameter.schema, parameter.example);
      checkMedia(`${at} request body`, operation.requestBody?.content?.['application/json']);
      for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) checkMedia(`${at} ${status}`, response.content?.['application/json']);
    }
  }
  for (const [name, schema] of Object.entries<Json>(document.components?.schemas ?? {})) {
    for (const example of declaredExamples(schema, name)) check(`component ${example.where}`, example.schema, example.value);
  }
  for (const [name, header] of Object.entries<Json>(document.components?.headers ?? {})) {
    for (const value of header.schema?.examples ?? []) check(`header ${name}`, header.schema, value);
  }
  return violations;
}

/** Every example-bearing place of the document that has none: an operation's parameters, JSON request body and response bodies. */
export function missingExamples(document: Document): string[] {
  const missing: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const at = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) if (parameter.example === undefined) missing.push(`${at} parameter ${parameter.name}`);
      const body = operation.requestBody?.content?.['application/json'];
      if (body && body.example === undefined && body.examples === undefined) missing.push(`${at} request body`);
      for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
        for (const [type, media] of Object.entries<Json>(response.content ?? {})) {
          if (media.example === undefined && media.examples === undefined) missing.push(`${at} ${status} ${type}`);
        }
      }
    }
  }
  return missing;
}
