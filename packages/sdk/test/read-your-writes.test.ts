import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadAfterTokens } from '../src/http/read-after-token.js';
import { RaffleClient } from '../src/index.js';
import { answerJson, startScriptedServer, type ScriptedServer } from './support/scripted-server.js';

/**
 * Read-your-writes across a replicated deployment: the client sends the `Raffle-Read-After` token
 * of its latest write on its reads, and reports each answer's `Raffle-Staleness-Ms`.
 */
let server: ScriptedServer;
/** Each write answers with the next token; reads answer with a staleness of 40 ms. */
const TOKENS = ['0/16B3748', '1/0', '0/FFFFFFFF'];
let writes = 0;

beforeAll(async () => {
  server = await startScriptedServer((request, response) => {
    if (request.method === 'GET') return answerJson(response, 200, { id: 'usr_1' }, { 'raffle-staleness-ms': '40' });
    answerJson(response, 201, { id: `ent_${writes}` }, { 'raffle-read-after': TOKENS[writes++ % TOKENS.length]! });
  });
});
afterAll(() => server?.close());

const sentToken = (index: number) => server.seen[index]!.headers['raffle-read-after'];

describe('read-your-writes', () => {
  it('sends no token before a write, then the furthest token seen on every read (never on writes)', async () => {
    const client = new RaffleClient({ apiKey: 'svc_u_test', baseUrl: server.baseUrl });
    const start = server.seen.length;
    const me = await client.me.get();
    expect(sentToken(start)).toBeUndefined();
    expect(me.lastResponse.stalenessMs).toBe(40);

    await client.raffles.enter('a');
    await client.me.get();
    expect(sentToken(start + 2)).toBe('0/16B3748');
    await client.raffles.enter('b');
    // A later write's token supersedes, and an earlier one never replaces a later one.
    await client.raffles.enter('c');
    expect(sentToken(start + 3)).toBeUndefined();
    await client.me.get();
    expect(sentToken(start + 5)).toBe('1/0');
  });

  it('keeps tokens per client, and sends none when told not to', async () => {
    const writer = new RaffleClient({ apiKey: 'svc_u_test', baseUrl: server.baseUrl, readYourWrites: false });
    await writer.raffles.enter('d');
    const start = server.seen.length;
    await writer.me.get();
    await new RaffleClient({ apiKey: 'svc_u_other', baseUrl: server.baseUrl }).me.get();
    expect([sentToken(start), sentToken(start + 1)]).toEqual([undefined, undefined]);
  });

  it('orders tokens by log position, high word first, and ignores what is not one', () => {
    const tokens = createReadAfterTokens();
    for (const token of ['0/FFFFFFFF', 'junk', null, '0/1', '2/0', '1/FFFFFFFF', '2/0; x']) tokens.saw(token);
    expect(tokens.latest()).toBe('2/0');
  });
});
