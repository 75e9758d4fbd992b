import type { JsonObject, OpenApiDocumentJson } from './document-types.js';

const SCHEMA_REF = '#/components/schemas/';

function collectSchemaRefs(node: unknown, found: string[]) {
  if (Array.isArray(node)) for (const item of node) collectSchemaRefs(item, found);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF)) found.push(value.slice(SCHEMA_REF.length));
      else collectSchemaRefs(value, found);
    }
  }
}

/**
 * Every service registers the whole contracts catalogue (routes `$ref` it), but a document
 * should carry only what its operations and webhooks use: the schemas reachable from `paths`,
 * `webhooks` and the other components, transitively. The rest are dropped.
 */
export function pruneUnusedSchemas(document: OpenApiDocumentJson) {
  const schemas = document.components.schemas ?? {};
  const { schemas: _all, ...otherComponents } = document.components;
  const pending: string[] = [];
  collectSchemaRefs([document.paths, document.webhooks, otherComponents], pending);
  const reachable = new Set<string>();
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (reachable.has(name) || !schemas[name]) continue;
    reachable.add(name);
    collectSchemaRefs(schemas[name], pending);
  }
  const kept: Record<string, JsonObject> = {};
  for (const [name, schema] of Object.entries(schemas)) if (reachable.has(name)) kept[name] = schema;
  if (Object.keys(kept).length > 0) document.components.schemas = kept;
  else delete document.components.schemas;
}
