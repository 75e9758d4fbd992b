import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, csvStream, UTF8_BOM } from '../src/index.js';
import { csvObjects, parseStrictCsv } from '../src/testing/strict-csv.js';

describe('csvCell', () => {
  it('quotes fields with a comma, a quote, a CR or an LF (RFC 4180), doubling inner quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rinside')).toBe('"cr\rinside"');
    expect(csvCell('')).toBe('');
  });

  it('prefixes text that opens like a formula with a quote mark (OWASP CSV injection)', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","click")')).toBe(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1:A9)')).toBe("'@SUM(A1:A9)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    // Only the first character counts: a formula sign later in the text is harmless.
    expect(csvCell('a=1')).toBe('a=1');
    // Text that looks like a number is still text, and is marked as such.
    expect(csvCell('-2')).toBe("'-2");
  });

  it('writes numbers as they are, negative ones too; booleans as words; absent values as empty fields', () => {
    expect(csvCell(-2)).toBe('-2');
    expect(csvCell(3)).toBe('3');
    expect(csvCell(2.5)).toBe('2.5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('writes objects and arrays as compact JSON in one field', () => {
    expect(csvCell({ ipReuse: ['ent_1', 'ent_2'] })).toBe('"{""ipReuse"":[""ent_1"",""ent_2""]}"');
    expect(csvCell({})).toBe('{}');
    expect(csvCell(['=1'])).toBe('"[""=1""]"');
  });

  it('ends each line with CRLF', () => {
    expect(csvLine(['a', 1, null, 'b,c'])).toBe('a,1,,"b,c"\r\n');
  });
});

describe('csvStream', () => {
  type Row = { id: string; note?: string; position: number; flags: object };
  const columns = ['id', 'note', 'position', 'flags'] as const;

  async function* batches<T>(...all: T[][]) {
    for (const batch of all) yield batch;
  }

  // Not stream/consumers' text(): TextDecoder drops a leading BOM, and the BOM is under test.
  const fileOf = async (stream: Readable) => Buffer.concat(await stream.toArray()).toString('utf8');

  it('is the BOM, the header and every record, and reads back field for field', async () => {
    const rows: Row[] = [
      { id: 'a', note: 'Zoë, "the" winner\r\nline two', position: 1, flags: { ipReuse: ['x'] } },
      { id: 'b', position: -2, flags: {} },
      { id: 'c', note: '=1+1', position: 3, flags: {} },
    ];
    const file = await fileOf(csvStream(columns, batches<Row>(rows.slice(0, 2), [], rows.slice(2))));
    expect(file.startsWith(`${UTF8_BOM}id,note,position,flags\r\n`)).toBe(true);
    const parsed = parseStrictCsv(file);
    expect(parsed.bom).toBe(true);
    expect(parsed.header).toEqual([...columns]);
    expect(csvObjects(parsed)).toEqual([
      { id: 'a', note: 'Zoë, "the" winner\r\nline two', position: '1', flags: '{"ipReuse":["x"]}' },
      { id: 'b', note: '', position: '-2', flags: '{}' },
      { id: 'c', note: "'=1+1", position: '3', flags: '{}' },
    ]);
  });

  it('encodes as UTF-8: the BOM is EF BB BF and non-ASCII text keeps its bytes', async () => {
    const bytes = Buffer.concat(await csvStream(['id'], batches([{ id: 'Ünïcødé 🎟' }])).toArray());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8')).toBe(`${UTF8_BOM}id\r\nÜnïcødé 🎟\r\n`);
  });

  it('reads no further batch once the stream is destroyed (a client that went away)', async () => {
    let read = 0;
    let finished = false;
    async function* endless() {
      try {
        for (;;) {
          read++;
          yield [{ id: `row-${read}`.padEnd(40_000, 'x') }];
        }
      } finally {
        finished = true;
      }
    }
    const stream = csvStream(['id'], endless());
    const firstChunks: Buffer[] = [];
    for await (const chunk of stream as Readable) {
      firstChunks.push(chunk as Buffer);
      if (firstChunks.length === 3) break; // `break` destroys the stream
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished).toBe(true);
    const readWhenDestroyed = read;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(read).toBe(readWhenDestroyed);
    expect(read).toBeLessThan(10);
  });
});

describe('parseStrictCsv (the tests\' reader)', () => {
  it('refuses what RFC 4180 does not allow', () => {
    expect(() => parseStrictCsv('a,b\r\n1,2')).toThrow(/CRLF/);
    expect(() => parseStrictCsv('a,b\n1,2\n')).toThrow(/after a field/);
    expect(() => parseStrictCsv('a,b\r\n1,x"y\r\n')).toThrow(/quote inside a bare field/);
    expect(() => parseStrictCsv('a,b\r\n"1"x,2\r\n')).toThrow(/after a field/);
    expect(() => parseStrictCsv('a,b\r\n1\r\n')).toThrow(/1 fields, the header 2/);
    expect(() => parseStrictCsv('a\r\n"open\r\n')).toThrow(/never closes/);
    expect(parseStrictCsv('a,b\r\n"x,""y""\r\nz",\r\n').rows).toEqual([['x,"y"\r\nz', '']]);
  });
});
