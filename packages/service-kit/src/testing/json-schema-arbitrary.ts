import fc from 'fast-check';
import {
  awkwardStrings,
  deepNesting,
  extraFieldNames,
  hostileDateTimes,
  hostileNumbers,
  numericStrings,
  oversizedString,
  withUnstorableCharacter,
  wrongTypes,
} from './hostile-values.js';

/** A JSON Schema node as @fastify/swagger prints it into an OpenAPI 3.1 document. */
export type JsonSchema = { [keyword: string]: unknown };

export type SchemaArbitraryOptions = {
  /** The document's `components.schemas`, which `$ref: '#/components/schemas/X'` points into. */
  components?: Record<string, JsonSchema>;
  /**
   * Real values by field or parameter name (`workspaceId`, `raffleId`, `slug`…), drawn often so a
   * request names something that exists and reaches the handler and the database. Read at each
   * draw, so a test may add the ids its fuzzed requests create.
   */
  knownValues?: Record<string, unknown[]>;
  /** Valid strings of a format the generator can only guess: `uri` → an address the service accepts. */
  formats?: Record<string, fc.Arbitrary<string>>;
};

/** One node in this many is replaced by a hostile value: with a dozen fields, most bodies carry one. */
const KEEP_WEIGHT = 10;
const MUTATE_WEIGHT = 1;
/**
 * Numbers and date-times are few per body but are where column ranges bite (integer overflow,
 * years Postgres cannot store), so they are attacked more often.
 */
const MUTATE_RANGED_WEIGHT = 4;
/** Recursive schemas stop here; no contract schema nests deeper. */
const MAX_DEPTH = 8;

const asSchema = (value: unknown): JsonSchema => (value !== null && typeof value === 'object' ? (value as JsonSchema) : {});
const numberOr = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback);

function regexArbitrary(pattern: string): fc.Arbitrary<string> | undefined {
  try {
    return fc.stringMatching(new RegExp(pattern, 'u'));
  } catch {
    try {
      return fc.stringMatching(new RegExp(pattern));
    } catch {
      return undefined;
    }
  }
}

/**
 * fast-check arbitraries for the values a JSON Schema describes: `valid` draws only values the
 * schema accepts; `fuzzed` draws the same shapes with, at any depth, one field swapped for a
 * value that attacks its kind (see hostile-values.ts), a required field dropped or an extra added.
 */
export class SchemaArbitraries {
  constructor(private readonly options: SchemaArbitraryOptions = {}) {}

  resolve(schema: JsonSchema): JsonSchema {
    let current = schema;
    for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops++) {
      const name = current.$ref.replace(/^#\/components\/schemas\//, '');
      const target = this.options.components?.[name];
      if (!target) throw new Error(`openapi-fuzz: unresolved $ref ${current.$ref}`);
      current = target;
    }
    return current;
  }

  valid(schema: JsonSchema, name?: string, depth = 0): fc.Arbitrary<unknown> {
    return this.withKnownValues(this.validShape(this.resolve(schema), depth), name);
  }

  fuzzed(schema: JsonSchema, name?: string, depth = 0): fc.Arbitrary<unknown> {
    const s = this.resolve(schema);
    return fc.oneof(
      { arbitrary: this.withKnownValues(this.fuzzedShape(s, depth), name), weight: KEEP_WEIGHT },
      { arbitrary: this.hostile(s, name, depth), weight: this.isRanged(s) ? MUTATE_RANGED_WEIGHT : MUTATE_WEIGHT },
    );
  }

  private isRanged(schema: JsonSchema): boolean {
    const s = this.resolve(schema);
    const dateTime = this.branchOfKind(s, 'string');
    return !!(this.branchOfKind(s, 'integer') ?? this.branchOfKind(s, 'number')) || dateTime?.format === 'date-time' || dateTime?.format === 'date';
  }

  /** A value that attacks a field of this schema: the wrong type, or the right type at its worst. */
  hostile(schema: JsonSchema, name?: string, depth = 0): fc.Arbitrary<unknown> {
    const s = this.resolve(schema);
    const kinds = this.kindsOf(s);
    const valid = this.valid(s, name, depth);
    const arbitraries: Array<fc.WeightedArbitrary<unknown>> = [
      { arbitrary: wrongTypes, weight: 2 },
      { arbitrary: deepNesting, weight: 1 },
      { arbitrary: valid.map((v) => [v, v]), weight: 1 },
    ];
    const stringSchema = this.branchOfKind(s, 'string');
    if (stringSchema) {
      const validString = this.validShape(stringSchema, depth) as fc.Arbitrary<string>;
      arbitraries.push(
        { arbitrary: withUnstorableCharacter(validString), weight: 6 },
        { arbitrary: oversizedString(stringSchema.maxLength as number | undefined), weight: 2 },
        { arbitrary: awkwardStrings, weight: 2 },
      );
      if (stringSchema.format === 'date-time' || stringSchema.format === 'date') arbitraries.push({ arbitrary: hostileDateTimes, weight: 10 });
    }
    const numberSchema = this.branchOfKind(s, 'integer') ?? this.branchOfKind(s, 'number');
    if (numberSchema) {
      arbitraries.push(
        { arbitrary: hostileNumbers({ minimum: numberSchema.minimum as number | undefined, maximum: numberSchema.maximum as number | undefined }), weight: 8 },
        { arbitrary: numericStrings, weight: 2 },
      );
    }
    if (kinds.has('array')) {
      const items = asSchema(s.items);
      const tooMany = numberOr(s.maxItems, 1000) + 1;
      arbitraries.push(
        { arbitrary: this.valid(items, undefined, depth + 1).map((item) => Array.from({ length: tooMany }, () => item)), weight: 1 },
        { arbitrary: fc.array(this.hostile(items, undefined, depth + 1), { minLength: 1, maxLength: 3 }), weight: 3 },
      );
    }
    if (kinds.has('object')) arbitraries.push({ arbitrary: deepNesting, weight: 2 });
    return fc.oneof(...arbitraries);
  }

  private withKnownValues(arbitrary: fc.Arbitrary<unknown>, name: string | undefined): fc.Arbitrary<unknown> {
    const pool = name === undefined ? undefined : this.options.knownValues?.[name];
    if (!pool) return arbitrary;
    const known = fc.tuple(fc.nat(), arbitrary).map(([i, fallback]) => (pool.length > 0 ? pool[i % pool.length] : fallback));
    return fc.oneof({ arbitrary: known, weight: 3 }, { arbitrary, weight: 1 });
  }

  private kindsOf(schema: JsonSchema): Set<string> {
    const s = this.resolve(schema);
    const kinds = new Set<string>();
    const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
    if (alternatives) for (const alt of alternatives) for (const k of this.kindsOf(alt)) kinds.add(k);
    if (Array.isArray(s.type)) for (const t of s.type) kinds.add(String(t));
    else if (typeof s.type === 'string') kinds.add(s.type);
    else if (s.properties) kinds.add('object');
    if (Array.isArray(s.enum)) for (const v of s.enum) kinds.add(typeof v);
    return kinds;
  }

  /** The schema itself, or the `anyOf` branch, that describes values of this JSON type. */
  private branchOfKind(schema: JsonSchema, kind: string): JsonSchema | undefined {
    const s = this.resolve(schema);
    if (s.type === kind || (Array.isArray(s.type) && s.type.includes(kind))) return { ...s, type: kind };
    for (const alt of ((s.anyOf ?? s.oneOf) as JsonSchema[] | undefined) ?? []) {
      const found = this.branchOfKind(alt, kind);
      if (found) return found;
    }
    return undefined;
  }

  private validShape(s: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    if (s.const !== undefined) return fc.constant(s.const);
    if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
    const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
    if (alternatives) return fc.oneof(...alternatives.map((alt) => this.valid(alt, undefined, depth)));
    if (Array.isArray(s.type)) return fc.oneof(...s.type.map((t) => this.validShape({ ...s, type: t }, depth)));
    if (depth > MAX_DEPTH) return fc.constant(null);
    switch (s.type ?? (s.properties ? 'object' : undefined)) {
      case 'string':
        return this.validString(s);
      case 'integer':
        return fc.integer({
          min: s.exclusiveMinimum !== undefined ? Math.floor(Number(s.exclusiveMinimum)) + 1 : numberOr(s.minimum, -1000),
          max: s.exclusiveMaximum !== undefined ? Math.ceil(Number(s.exclusiveMaximum)) - 1 : numberOr(s.maximum, 1_000_000),
        });
      case 'number':
        return fc.double({ min: numberOr(s.minimum, -1e6), max: numberOr(s.maximum, 1e6), noNaN: true, noDefaultInfinity: true });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return this.arrayOf(s, this.valid(asSchema(s.items), undefined, depth + 1));
      case 'object':
        return this.objectOf(s, (child, key) => this.valid(child, key, depth + 1));
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  private fuzzedShape(s: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
    if (alternatives) return fc.oneof(...alternatives.map((alt) => this.fuzzed(alt, undefined, depth)));
    if (depth > MAX_DEPTH) return fc.constant(null);
    if (s.type === 'array') return this.arrayOf(s, this.fuzzed(asSchema(s.items), undefined, depth + 1));
    if (s.type === 'object' || (s.type === undefined && s.properties)) {
      const record = this.objectOf(s, (child, key) => this.fuzzed(child, key, depth + 1));
      return fc.oneof(
        { arbitrary: record, weight: KEEP_WEIGHT },
        { arbitrary: fc.tuple(record, fc.nat()).map(([value, i]) => this.withoutARequiredField(s, value, i)), weight: MUTATE_WEIGHT },
        { arbitrary: fc.tuple(record, extraFieldNames, wrongTypes).map(([value, key, extra]) => withOwnField(value, key, extra)), weight: MUTATE_WEIGHT },
      );
    }
    return this.validShape(s, depth);
  }

  private validString(s: JsonSchema): fc.Arbitrary<string> {
    const minLength = numberOr(s.minLength, 0);
    const maxLength = numberOr(s.maxLength, minLength + 40);
    const fits = (text: string) => text.length >= minLength && text.length <= maxLength;
    const format = typeof s.format === 'string' ? s.format : undefined;
    if (format && this.options.formats?.[format]) return this.options.formats[format];
    if (format === 'date-time') {
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
    }
    if (format === 'uri') return fc.webUrl().filter(fits);
    if (format === 'email') return fc.emailAddress().filter(fits);
    if (format === 'uuid') return fc.uuid();
    if (typeof s.pattern === 'string') {
      const matching = regexArbitrary(s.pattern);
      if (matching) return matching.filter(fits);
    }
    return fc.string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength, minLength + 40) }).filter(fits);
  }

  private arrayOf(s: JsonSchema, items: fc.Arbitrary<unknown>): fc.Arbitrary<unknown[]> {
    const minLength = numberOr(s.minItems, 0);
    const maxLength = Math.min(numberOr(s.maxItems, minLength + 3), minLength + 3);
    return s.uniqueItems
      ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
      : fc.array(items, { minLength, maxLength });
  }

  private objectOf(s: JsonSchema, child: (schema: JsonSchema, key: string) => fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
    const properties = asSchema(s.properties);
    const keys = Object.keys(properties);
    if (keys.length === 0) {
      if (s.additionalProperties === false) return fc.constant({});
      return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
    }
    const model = Object.fromEntries(keys.map((key) => [key, child(asSchema(properties[key]), key)]));
    const requiredKeys = ((s.required as string[] | undefined) ?? []).filter((key) => key in properties);
    const minProperties = numberOr(s.minProperties, 0);
    return fc.record(model, { requiredKeys }).filter((value) => Object.keys(value).length >= minProperties);
  }

  private withoutARequiredField(s: JsonSchema, value: Record<string, unknown>, i: number): Record<string, unknown> {
    const required = (s.required as string[] | undefined) ?? Object.keys(value);
    if (required.length === 0) return value;
    const { [required[i % required.length]!]: _dropped, ...rest } = value;
    return rest;
  }
}

/** An own property even for `__proto__`, which a plain assignment would turn into a prototype change. */
function withOwnField(value: Record<string, unknown>, key: string, extra: unknown): Record<string, unknown> {
  const copy = { ...value };
  Object.defineProperty(copy, key, { value: extra, enumerable: true, configurable: true, writable: true });
  return copy;
}
