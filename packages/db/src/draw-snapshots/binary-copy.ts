/**
 * Postgres's binary COPY format, as far as draw snapshot chunks need it: writing rows of
 * (text, int4, bytea) and reading rows of one bytea. Binary, because a bytea parameter or text
 * column travels as hex (twice the bytes, plus copies), and these are megabytes.
 * https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9.4
 */

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** The signature, then 32-bit flags (0: no OIDs) and a 32-bit header extension length (0). */
const HEADER = Buffer.concat([SIGNATURE, Buffer.alloc(8)]);
const TRAILER = Buffer.from([0xff, 0xff]);

/** The stream of buffers COPY … FROM STDIN (FORMAT binary) takes for rows (text, int4, bytea). */
export function* binaryCopyRows(rows: Iterable<readonly [string, number, Buffer]>): Generator<Buffer> {
  yield HEADER;
  for (const [text, int, bytes] of rows) {
    const textBytes = Buffer.from(text, 'utf8');
    const head = Buffer.alloc(2 + 4 + textBytes.length + 4 + 4 + 4);
    let at = head.writeInt16BE(3, 0);
    at = head.writeInt32BE(textBytes.length, at);
    at += textBytes.copy(head, at);
    at = head.writeInt32BE(4, at);
    at = head.writeInt32BE(int, at);
    head.writeInt32BE(bytes.length, at);
    yield head;
    yield bytes;
  }
  yield TRAILER;
}

/** The values of a one-column bytea binary COPY … TO STDOUT, in order (views into `data`). */
export function parseBinaryCopyBytea(data: Buffer): Buffer[] {
  if (data.length < HEADER.length || !data.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
  let at = SIGNATURE.length + 4;
  at += 4 + data.readInt32BE(at);
  const values: Buffer[] = [];
  for (;;) {
    const fields = data.readInt16BE(at);
    at += 2;
    if (fields === -1) return values;
    if (fields !== 1) throw new Error(`binary COPY row with ${fields} fields, expected 1`);
    const length = data.readInt32BE(at);
    at += 4;
    if (length < 0) throw new Error('binary COPY row with a null bytea');
    values.push(data.subarray(at, at + length));
    at += length;
  }
}
