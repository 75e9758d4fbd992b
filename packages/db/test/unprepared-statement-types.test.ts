import { createServer, connect, type Server, type Socket } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The postgres.js patch for `prepare: false` (patches/postgres@3.4.9.patch, docs/decisions/0037):
 * an unprepared statement with parameters asks the server for their types once per query text and
 * connection (Parse, Describe, Flush, then a wait), and every later run goes in one round trip with
 * the types it learnt. Watched here by counting the Flush messages the client sends through a proxy.
 */

const URL_ = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const FLUSH = 0x48;

let proxy: Server;
let flushes = 0;
const sockets = new Set<Socket>();

/** Counts the client's Flush messages on their way to Postgres (after the untyped startup message). */
function countFlushes(): (chunk: Buffer) => void {
  let buffered = Buffer.alloc(0);
  let started = false;
  return (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      if (!started) {
        if (buffered.length < 4) return;
        const length = buffered.readUInt32BE(0);
        if (buffered.length < length) return;
        // An SSLRequest has the same shape as a startup message and is answered before it.
        const code = buffered.readUInt32BE(4);
        buffered = buffered.subarray(length);
        if (code !== 80877103) started = true;
        continue;
      }
      if (buffered.length < 5) return;
      const length = buffered.readUInt32BE(1);
      if (buffered.length < length + 1) return;
      if (buffered[0] === FLUSH) flushes++;
      buffered = buffered.subarray(length + 1);
    }
  };
}

let sql: postgres.Sql;

beforeAll(async () => {
  proxy = createServer((client) => {
    const server = connect(Number(URL_.port || 5432), URL_.hostname);
    sockets.add(client).add(server);
    const count = countFlushes();
    client.on('data', (chunk: Buffer) => {
      count(chunk);
      server.write(chunk);
    });
    server.pipe(client);
    client.on('close', () => server.destroy());
    server.on('close', () => client.destroy());
    client.on('error', () => server.destroy());
    server.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as { port: number };
  const through = new URL(URL_);
  through.hostname = '127.0.0.1';
  through.port = String(port);
  sql = postgres(through.toString(), { max: 1, prepare: false, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => proxy?.close(resolve));
});

describe('unprepared statements with parameters', () => {
  it('ask for their parameter types once per query text, then run in one round trip', async () => {
    await sql`select 1`;
    const before = flushes;
    for (let i = 0; i < 5; i++) expect((await sql<{ n: number }[]>`select ${i}::int as n`)[0]!.n).toBe(i);
    expect(flushes - before).toBe(1);
  });

  it('inside transactions too', async () => {
    const run = (i: number) => sql.begin(async (tx) => (await tx<{ n: number }[]>`select ${i}::int + 1 as n`)[0]!.n);
    await run(0);
    const before = flushes;
    for (let i = 1; i < 5; i++) expect(await run(i)).toBe(i + 1);
    expect(flushes - before).toBe(0);
  });

  it('send every value as the learnt types say: text, integers, arrays, json, timestamps, bytes', async () => {
    const run = (values: { t: string; big: string; list: number[]; doc: object; at: Date; bytes: Buffer }) =>
      sql<{ t: string; big: string; list: number[]; doc: object; at: Date; bytes: Buffer }[]>`
        select ${values.t}::text as t, ${values.big}::int8 as big, ${values.list}::int[] as list,
               ${sql.json(values.doc as never)}::jsonb as doc, ${values.at}::timestamptz as at, ${values.bytes}::bytea as bytes`.then(([row]) => row!);
    for (let i = 0; i < 3; i++) {
      const values = { t: `ü-${i}`, big: String(2n ** 40n + BigInt(i)), list: [i, i + 1], doc: { i, nested: [i] }, at: new Date(Date.UTC(2026, 0, 1 + i)), bytes: Buffer.from([i, 255]) };
      const row = await run(values);
      expect(row.t).toBe(values.t);
      expect(row.big).toBe(values.big);
      expect(row.list).toEqual(values.list);
      expect(row.doc).toEqual(values.doc);
      expect(row.at.getTime()).toBe(values.at.getTime());
      expect(Buffer.from(row.bytes)).toEqual(values.bytes);
    }
  });

  it('learn the types again after a run of the statement fails', async () => {
    const query = (value: string) => sql`select ${value}::int as n`;
    await query('1');
    const before = flushes;
    await expect(query('not a number')).rejects.toThrow();
    // The failed run used the learnt types; the next asks again.
    expect((await query('2'))[0]!.n).toBe(2);
    expect(flushes - before).toBe(1);
  });
});
