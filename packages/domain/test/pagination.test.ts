import { DASHBOARD_PAGE_SIZE, PAGE_SIZES } from '@raffle/contracts';
import { newId } from '@raffle/db';
import { describe, expect, it } from 'vitest';
import {
  CURSOR_REFUSALS,
  createCursorCodec,
  cursorBinding,
  isIdKey,
  isPositionIdKey,
  isStringKey,
  loadJsonPage,
  pageLimit,
  readPageRequest,
  renderJsonPage,
  toPage,
} from '../src/index.js';

const api = createCursorCodec('test-secret', 'api');
const dashboard = createCursorCodec('test-secret', 'dashboard');

describe('cursorBinding', () => {
  it('names the list and its filters, an absent filter as *', () => {
    expect(cursorBinding('v1:public-raffles')).toBe('v1:public-raffles');
    expect(cursorBinding('v1:raffle-entries', 'ws_1', 'raf_2')).toBe('v1:raffle-entries:ws_1:raf_2');
    expect(cursorBinding('dashboard:entries', 'raf_2', undefined)).toBe('dashboard:entries:raf_2:*');
    expect(cursorBinding('webhook-endpoints', 'user', 'usr_3')).toBe('webhook-endpoints:user:usr_3');
  });
});

describe('the cursor codec', () => {
  const binding = cursorBinding('v1:my-wins', 'usr_1');

  it('gives back the key it signed, for the binding it signed it for', () => {
    expect(api.decode(binding, api.encode(binding, 'win_abc'), isStringKey)).toBe('win_abc');
    const key = { publishedAt: '2024-01-01T00:00:00.000000Z', id: 'raf_1' };
    expect(api.decode(binding, api.encode(binding, key), (k): k is typeof key => typeof k === 'object')).toEqual(key);
  });

  it('refuses an edited, foreign-list, foreign-secret or malformed cursor with 400 INVALID_CURSOR, in each service\'s words', () => {
    const cursor = api.encode(binding, 'win_abc');
    const edited = `${Buffer.from(JSON.stringify('win_abd')).toString('base64url')}${cursor.slice(cursor.indexOf('.'))}`;
    const refused = [
      edited,
      api.encode(cursorBinding('v1:my-wins', 'usr_2'), 'win_abc'),
      createCursorCodec('other-secret', 'api').encode(binding, 'win_abc'),
      'garbage',
      `${cursor}.x`,
      cursor.slice(0, -2),
    ];
    for (const c of refused) {
      expect(() => api.decode(binding, c, isStringKey), c).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR', statusCode: 400, message: CURSOR_REFUSALS.api }));
      expect(() => dashboard.decode(binding, c, isStringKey), c).toThrow(expect.objectContaining({ message: CURSOR_REFUSALS.dashboard }));
    }
    expect(CURSOR_REFUSALS).toEqual({
      api: 'cursor is not a cursor this endpoint issued; start again without it',
      dashboard: 'cursor is not one this list issued; start again without it',
    });
  });

  it('refuses a signed key of the wrong shape', () => {
    const binding2 = cursorBinding('dashboard:wins', 'raf_1', undefined);
    const winId = newId('win');
    expect(dashboard.decode(binding2, dashboard.encode(binding2, [3, winId]), isPositionIdKey('win'))).toEqual([3, winId]);
    for (const key of [[winId], [0, winId], [1.5, winId], [3, newId('entry')], winId, null]) {
      expect(() => dashboard.decode(binding2, dashboard.encode(binding2, key), isPositionIdKey('win')), JSON.stringify(key)).toThrow(
        expect.objectContaining({ code: 'INVALID_CURSOR' }),
      );
    }
    expect(() => dashboard.decode(binding2, dashboard.encode(binding2, [newId('user')]), isIdKey('workspace'))).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
    expect(() => api.decode(binding2, api.encode(binding2, ''), isStringKey)).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
  });
});

describe('pageLimit', () => {
  it("takes the list's default when absent and refuses anything but an integer from 1 to its maximum", () => {
    expect(pageLimit(undefined, DASHBOARD_PAGE_SIZE)).toBe(50);
    expect(pageLimit(undefined, PAGE_SIZES.workspaceRaffleEntries)).toBe(100);
    expect(pageLimit(250, PAGE_SIZES.workspaceRaffleEntries)).toBe(250);
    expect(pageLimit(1, DASHBOARD_PAGE_SIZE)).toBe(1);
    for (const limit of [0, -1, 1.5, 101, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => pageLimit(limit, DASHBOARD_PAGE_SIZE), String(limit)).toThrow(
        expect.objectContaining({ code: 'INVALID_LIMIT', statusCode: 400, message: 'limit must be an integer from 1 to 100' }),
      );
    }
  });
});

describe('a page', () => {
  const rows = [1, 2, 3, 4].map((n) => ({ id: `id_${n}`, json: JSON.stringify({ id: `id_${n}`, text: 'a "quoted" é' }) }));
  const list = { binding: cursorBinding('v1:projects', 'ws_1'), rule: PAGE_SIZES.workspaceProjects, isKey: isStringKey };

  it('shows `limit` rows and signs the last shown key when one more was read', () => {
    const page = readPageRequest({ limit: 3, cursors: api }, list);
    const built = toPage(rows, page, (r) => r.id, (r) => JSON.parse(r.json) as unknown);
    expect(built.data).toHaveLength(3);
    expect(built.pagination.hasMore).toBe(true);
    expect(api.decode(list.binding, built.pagination.nextCursor!, isStringKey)).toBe('id_3');
    const next = readPageRequest({ limit: 3, cursor: built.pagination.nextCursor!, cursors: api }, list);
    expect(next.after).toBe('id_3');
  });

  it('ends without a cursor when no extra row was read', () => {
    const page = readPageRequest({ limit: 4, cursors: api }, list);
    expect(toPage(rows, page, (r) => r.id, (r) => r.id)).toEqual({ data: ['id_1', 'id_2', 'id_3', 'id_4'], pagination: { nextCursor: null, hasMore: false } });
  });

  it('renders pre-rendered rows as exactly the JSON of the same page', () => {
    for (const limit of [1, 3, 4, 10]) {
      const page = readPageRequest({ limit, cursors: api }, list);
      const text = renderJsonPage(rows, page, (r) => r.id);
      expect(text).toBe(JSON.stringify(toPage(rows, page, (r) => r.id, (r) => JSON.parse(r.json) as unknown)));
    }
    expect(renderJsonPage([], readPageRequest({ cursors: api }, list), (r: { id: string; json: string }) => r.id)).toBe(
      '{"data":[],"pagination":{"nextCursor":null,"hasMore":false}}',
    );
  });

  it('loads the rows after the cursor\'s key and renders them, in one step', async () => {
    const calls: Array<[string | null, number]> = [];
    const load = async (after: string | null, limit: number) => {
      calls.push([after, limit]);
      const start = after === null ? 0 : rows.findIndex((r) => r.id === after) + 1;
      return rows.slice(start, start + limit + 1);
    };
    const first = await loadJsonPage({ limit: 2, cursors: api }, list, load, (r) => r.id);
    expect(first).toBe(renderJsonPage(rows.slice(0, 3), readPageRequest({ limit: 2, cursors: api }, list), (r) => r.id));
    const cursor = (JSON.parse(first) as { pagination: { nextCursor: string } }).pagination.nextCursor;
    const second = JSON.parse(await loadJsonPage({ limit: 2, cursor, cursors: api }, list, load, (r) => r.id)) as { data: { id: string }[]; pagination: unknown };
    expect(second.data.map((item) => item.id)).toEqual(['id_3', 'id_4']);
    expect(second.pagination).toEqual({ nextCursor: null, hasMore: false });
    expect(calls).toEqual([
      [null, 2],
      ['id_2', 2],
    ]);
  });

  it('refuses a bad limit or cursor before anything is loaded', async () => {
    let loads = 0;
    const load = async () => {
      loads++;
      return rows;
    };
    await expect(loadJsonPage({ limit: 0, cursors: api }, list, load, (r) => r.id)).rejects.toMatchObject({ code: 'INVALID_LIMIT' });
    await expect(loadJsonPage({ limit: 2, cursor: 'garbage', cursors: api }, list, load, (r) => r.id)).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
    expect(loads).toBe(0);
  });

  it('checks the limit before the cursor', () => {
    expect(() => readPageRequest({ limit: 0, cursor: 'garbage', cursors: api }, list)).toThrow(expect.objectContaining({ code: 'INVALID_LIMIT' }));
    expect(() => readPageRequest({ limit: 5, cursor: 'garbage', cursors: api }, list)).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
  });
});
