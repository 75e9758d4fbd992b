import { describe, expect, it } from 'vitest';
import { renderStatementSummary, shortenQuery, summariseStatements, type StatementRow } from '../src/statement-summary.js';

const row = (query: string, calls: number, totalMs: number, extra: Partial<StatementRow> = {}): StatementRow => ({
  queryid: String(query.length * 31 + calls),
  query,
  toplevel: true,
  calls,
  totalMs,
  rows: calls,
  ...extra,
});

describe('shortenQuery', () => {
  it('unquotes identifiers and folds long column and placeholder lists', () => {
    const drizzle =
      'insert into "entries" ("id", "raffle_id", "user_id", "status", "created_at") values ($1, $2, $3, $4, $5) returning "id"';
    expect(shortenQuery(drizzle)).toBe('insert into entries (id, … 5 items) values ($1…$5) returning id');
    expect(shortenQuery('insert into t (a, b, c, d) values ($1, $2::numeric, $3, $4)')).toBe('insert into t (a, … 4 items) values ($1, … 4 items)');
    expect(shortenQuery('select "a", "b", "c", "d", coalesce("e", $1) from "raffles" where "id" = $2')).toBe(
      'select a, … 5 columns from raffles where id = $2',
    );
  });

  it('keeps short lists, collapses whitespace, and cuts long text in the middle so its end (a lock) still shows', () => {
    expect(shortenQuery('select  id,\n   slug from raffles where id = $1')).toBe('select id, slug from raffles where id = $1');
    const cut = shortenQuery(`select r.* from raffles r where ${'r.x = $1 and '.repeat(30)}true for update of r`, 60);
    expect(cut).toHaveLength(60);
    expect(cut).toBe('select r.* from raffles r where r.x = … true for update of r');
  });
});

describe('summariseStatements', () => {
  const rows = [
    row('COMMIT', 1000, 400),
    row('BEGIN', 1000, 10),
    row('select enter_raffle($1, $2)', 1000, 1500),
    row('insert into entries (id) values ($1)', 1000, 600, { toplevel: false }),
    row('select pg_sleep($1)', 1, 90),
    row('select 1', 5000, 50),
  ];

  it('shares are of the top-level total; a nested statement is not counted twice', () => {
    const summary = summariseStatements(rows, { name: 'entry', count: 500 });
    expect(summary.totalMs).toBe(400 + 10 + 1500 + 90 + 50);
    expect(summary.calls).toBe(1000 + 1000 + 1000 + 1 + 5000);
    expect(summary.statements).toBe(6);
    const call = summary.lines.find((l) => l.text.startsWith('select enter_raffle'))!;
    expect(call.share).toBeCloseTo(1500 / 2050);
    expect(call.meanMs).toBeCloseTo(1.5);
    expect(call.callsPerUnit).toBe(2);
    expect(call.msPerUnit).toBe(3);
    const nested = summary.lines.find((l) => !l.toplevel)!;
    expect(nested.share).toBeCloseTo(600 / 2050);
  });

  it('takes the top by total time, then the top by calls and mean not yet there, in order of total time', () => {
    const summary = summariseStatements(rows, null, { byTotal: 2, byCalls: 1, byMean: 1, meanMinCalls: 10, textLength: 100 });
    expect(summary.lines.map((l) => [l.text, l.ranks])).toEqual([
      ['select enter_raffle($1, $2)', { total: 1, mean: 1 }],
      ['insert into entries (id) values ($1)', { total: 2 }],
      ['select 1', { calls: 1 }],
    ]);
    // The one-off pg_sleep has the highest mean but too few calls to rank by it.
    expect(summary.lines.some((l) => l.text.includes('pg_sleep'))).toBe(false);
    expect(summary.lines[0]!.callsPerUnit).toBeNull();
  });

  it('renders a markdown table with per-unit figures, marking nested statements and escaping pipes', () => {
    const summary = summariseStatements([...rows, row("select a || b from t where c = $1", 10, 1)], { name: 'entry', count: 500 });
    const lines = renderStatementSummary('enter a raffle', summary);
    expect(lines[0]).toBe(
      '**enter a raffle**: 7 distinct statements, 8,011 top-level calls, 2,051 ms executing; per entry (500): 16.02 statements, 4.102 ms.',
    );
    expect(lines[2]).toBe('| Statement | ranked by | calls | calls/entry | total ms | mean ms | ms/entry | share | rows |');
    expect(lines).toContain('| `select enter_raffle($1, $2)` | total #1, mean #1 | 1,000 | 2.00 | 1,500 | 1.500 | 3.000 | 73.1% | 1,000 |');
    expect(lines).toContain('| ↳ (in a function) `insert into entries (id) values ($1)` | total #2, mean #2 | 1,000 | 2.00 | 600 | 0.600 | 1.200 | 29.3% | 1,000 |');
    expect(lines.some((l) => l.includes('select a \\|\\| b from t'))).toBe(true);
  });
});
