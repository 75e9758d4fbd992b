import type { TSchema } from '@sinclair/typebox';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A copy of `schema` with every `$ref` to a schema of `registry` (by `$id`) replaced by that
 * schema, its `$id` dropped: a self-contained JSON Schema that any validator takes with nothing
 * else registered (GET /api/developer/event-types serves the payload schemas so). Contract
 * schemas are not recursive; a cycle or an unknown `$ref` throws rather than loops or dangles.
 * TypeBox's symbol keys do not survive the copy, as a JSON document needs.
 */
export function inlineSchemaRefs(schema: TSchema, registry: readonly TSchema[]): Record<string, unknown> {
  const byId = new Map<string, Json>(registry.map((entry) => [String(entry.$id), toJson(entry)]));
  const inline = (node: Json, trail: readonly string[]): Json => {
    if (Array.isArray(node)) return node.map((item) => inline(item, trail));
    if (node === null || typeof node !== 'object') return node;
    const { $ref, ...rest } = node;
    const copy: { [key: string]: Json } = {};
    if (typeof $ref === 'string') {
      const target = byId.get($ref);
      if (target === undefined) throw new Error(`no schema ${$ref} to inline`);
      if (trail.includes($ref)) throw new Error(`schema ${$ref} is recursive and cannot be inlined`);
      const { $id: _id, ...resolved } = inline(target, [...trail, $ref]) as { [key: string]: Json };
      Object.assign(copy, resolved);
    }
    // Keywords beside the reference (its description) win over the referenced schema's own.
    for (const [key, value] of Object.entries(rest)) copy[key] = inline(value, trail);
    return copy;
  };
  return inline(toJson(schema), []) as Record<string, unknown>;
}

const toJson = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema)) as Json;
