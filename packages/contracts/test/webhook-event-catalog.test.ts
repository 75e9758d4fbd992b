import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import {
  inlineSchemaRefs,
  PERSONAL_WEBHOOK_EVENTS,
  SHARED_SCHEMAS,
  WEBHOOK_EVENT_CATALOG,
  WEBHOOK_EVENT_SCHEMAS,
  WEBHOOK_EVENT_TYPES,
  WORKSPACE_WEBHOOK_EVENTS,
} from '../src/index.js';

/**
 * The catalogue's shape. That each payload schema matches what is really sent is checked on real
 * deliveries (services/webhook-dispatcher/test/sdk-verify-webhook.test.ts).
 */
describe('WEBHOOK_EVENT_CATALOG', () => {
  it('has every event type of both capabilities lists once, each with the audiences that list it', () => {
    expect([...WEBHOOK_EVENT_TYPES].sort()).toEqual([...new Set([...PERSONAL_WEBHOOK_EVENTS, ...WORKSPACE_WEBHOOK_EVENTS])].sort());
    expect(Object.keys(WEBHOOK_EVENT_CATALOG)).toEqual([...WEBHOOK_EVENT_TYPES]);
    for (const type of WEBHOOK_EVENT_TYPES) {
      const { audiences, description } = WEBHOOK_EVENT_CATALOG[type];
      expect(audiences.includes('personal'), type).toBe((PERSONAL_WEBHOOK_EVENTS as readonly string[]).includes(type));
      expect(audiences.includes('workspace'), type).toBe((WORKSPACE_WEBHOOK_EVENTS as readonly string[]).includes(type));
      expect(description.length, type).toBeGreaterThan(20);
    }
  });

  it("gives each type a closed envelope whose `type` is that type's literal", () => {
    for (const type of WEBHOOK_EVENT_TYPES) {
      const payload = WEBHOOK_EVENT_CATALOG[type].payload as unknown as { properties: Record<string, { const?: string }>; required: string[]; additionalProperties: boolean };
      expect(payload.properties.type!.const, type).toBe(type);
      expect(payload.required, type).toEqual(['type', 'timestamp', 'data']);
      expect(payload.additionalProperties, type).toBe(false);
    }
  });

  it('registers payload schemas under ids no shared schema uses', () => {
    const ids = WEBHOOK_EVENT_SCHEMAS.map((schema) => schema.$id);
    expect(new Set(ids).size).toBe(ids.length);
    const shared = new Set(SHARED_SCHEMAS.map((schema) => schema.$id));
    expect(ids.filter((id) => shared.has(id))).toEqual([]);
  });
});

describe('inlineSchemaRefs', () => {
  const Leaf = Type.Object({ n: Type.Integer() }, { $id: 'Leaf' });
  const Branch = Type.Object({ leaf: Type.Ref(Leaf), maybe: Type.Union([Type.Ref(Leaf), Type.Null()]) }, { $id: 'Branch' });

  it('replaces every reference by the schema it names, without its $id, keeping keywords beside the $ref', () => {
    const withNote = Type.Object({ branch: Type.Ref(Branch, { description: 'the branch' }) });
    expect(inlineSchemaRefs(withNote, [Leaf, Branch])).toEqual({
      type: 'object',
      required: ['branch'],
      properties: {
        branch: {
          type: 'object',
          required: ['leaf', 'maybe'],
          description: 'the branch',
          properties: {
            leaf: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
            maybe: { anyOf: [{ type: 'object', required: ['n'], properties: { n: { type: 'integer' } } }, { type: 'null' }] },
          },
        },
      },
    });
  });

  it('throws on a reference it cannot resolve, or a cycle, instead of leaving it dangling or looping', () => {
    expect(() => inlineSchemaRefs(Type.Ref(Leaf), [])).toThrow(/no schema Leaf/);
    const Loop = Type.Object({ self: Type.Unsafe({ $ref: 'Loop' }) }, { $id: 'Loop' });
    expect(() => inlineSchemaRefs(Type.Ref(Loop), [Loop])).toThrow(/recursive/);
  });
});
