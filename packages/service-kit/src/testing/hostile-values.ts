import fc from 'fast-check';

/**
 * The values that have broken services before, grouped by the kind of field they attack. Each is
 * something a client can really send in JSON, a query or a path; the fuzzer splices them into
 * otherwise valid requests so the one odd field is what the server meets.
 */

/** Postgres text refuses U+0000; a lone surrogate is not valid UTF-8 and cannot be stored either. */
export const UNSTORABLE_CHARACTERS = ['\u0000', '\ud800', '\udfff', '\udbff', 'a\u0000b'] as const;

const splice = (text: string, at: number, insert: string) => {
  const i = text.length === 0 ? 0 : at % (text.length + 1);
  return text.slice(0, i) + insert + text.slice(i);
};

/** A string of the field's own shape with one unstorable character somewhere in it. */
export const withUnstorableCharacter = (valid: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(valid, fc.nat(), fc.constantFrom(...UNSTORABLE_CHARACTERS)).map(([text, at, bad]) => splice(text, at, bad));

/** Text a column with a length limit or an index (btree rows are capped near 2.7 kB) may refuse. */
export const oversizedString = (maxLength: number | undefined): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constant('x'.repeat((maxLength ?? 255) + 1)),
    fc.constant('é'.repeat(3000)),
    fc.constant('y'.repeat(20_000)),
  );

export const awkwardStrings: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '\t', '\n', '\u200b', '\ufeff', '🎟️', '\u202e', "'; drop table raffles; --", '%00', '\\u0000', '..', '__proto__', 'null', 'NaN', '-0'),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

/**
 * Numbers past what any column holds: JSON has no integer limit, Postgres `integer` stops at
 * 2^31 - 1, `bigint` at 2^63 - 1, and JavaScript loses integers past 2^53.
 */
export const HUGE_NUMBERS = [1e308, -1e308, 2 ** 63, -(2 ** 63), 2 ** 53 + 2, -(2 ** 53) - 1, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 4294967296, 1e21, 5e-324] as const;

/** Integers where the schema wants one, but wrong: out of every range, or not an integer at all. */
export const hostileNumbers = (bounds: { minimum?: number; maximum?: number }): fc.Arbitrary<number> =>
  fc.oneof(
    fc.constantFrom(...HUGE_NUMBERS),
    fc.constantFrom(0.5, 1.5, -0.5, 1.0000001, 99.99, -0),
    fc.constantFrom(...[bounds.minimum, bounds.maximum].filter((b): b is number => b !== undefined).flatMap((b) => [b - 1, b + 1, b + 0.5])),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
  );

/** Number-like strings: what a query string or a lenient coercion turns into a number. */
export const numericStrings: fc.Arbitrary<string> = fc.constantFrom(
  '1e308', '1e309', '-1e308', '9223372036854775808', '-9007199254740993', '2147483648', '0x10', '1_000', '1.5', '-0', 'Infinity', 'NaN', ' 1', '1 ', '０',
);

/**
 * Date-times Postgres cannot store or that change year in UTC: year 0 and year 10000, and
 * offsets that carry a valid-looking local time across the boundary. Plus impossible calendar
 * dates and the formats RFC 3339 does not allow.
 */
export const HOSTILE_DATE_TIMES = [
  '0000-06-01T00:00:00Z',
  '0000-01-01T00:00:00.000Z',
  '10000-01-01T00:00:00Z',
  '+010000-01-01T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '0001-01-01T00:00:00+01:00',
  '0001-01-01T00:59:59+01:00',
  '9999-12-31T23:59:59-01:00',
  '9999-12-31T23:30:00-00:45',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '1969-12-31T23:59:59Z',
  '2024-02-30T00:00:00Z',
  '2023-02-29T12:00:00Z',
  '2024-13-01T00:00:00Z',
  '2024-01-01T24:00:00Z',
  '2024-06-30T23:59:60Z',
  '2024-01-01T00:00:00+25:00',
  '2024-01-01T00:00:00',
  '2024-01-01',
  '2024-01-01T00:00:00.1234567890123Z',
  '275760-09-13T00:00:00Z',
  '-271821-04-20T00:00:00Z',
] as const;

export const hostileDateTimes: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_DATE_TIMES), weight: 4 },
  {
    // Any year at all, with any offset: most are outside 1–9999 or cross it in UTC.
    arbitrary: fc
      .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), fc.constantFrom('Z', '+01:00', '-01:00', '+14:00', '-12:00'))
      .map(([y, m, d, offset]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}T00:00:00${offset}`),
    weight: 1,
  },
);

/** `[[[[…]]]]` or `{"a":{"a":…}}` a thousand deep: recursive validators and serializers must not overflow. */
export function deeplyNested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = kind === 'array' ? [] : {};
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

export const deepNesting: fc.Arbitrary<unknown> = fc.constantFrom(
  deeplyNested(1000, 'array'),
  deeplyNested(1000, 'object'),
  deeplyNested(64, 'object'),
);

/** A value of another JSON type than the schema asks for. */
export const wrongTypes: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, '', 'x', [], {}, [null], JSON.parse('{"__proto__":{"polluted":true}}'), { constructor: { prototype: { polluted: true } } }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Field names a handler might trust or a prototype might swallow. */
export const extraFieldNames: fc.Arbitrary<string> = fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'workspaceId', 'userId', 'status', 'createdAt', '\u0000', '');
