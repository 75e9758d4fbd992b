/**
 * Where a scenario's Postgres time went, from `pg_stat_statements` rows read after it: the top
 * statements by total time, by calls and by mean time, each with its share of the scenario's total.
 * Pure functions over rows, so the shape of the report is tested without a server
 * (statement-stats.ts reads the rows).
 */

/** One `pg_stat_statements` entry of the benchmark database, as read after a scenario. */
export type StatementRow = {
  queryid: string;
  /** The normalised text (constants replaced by $n). */
  query: string;
  /** False for a statement run inside a function (`pg_stat_statements.track = all`). */
  toplevel: boolean;
  calls: number;
  /** Execution time, planning not included (track_planning is off). */
  totalMs: number;
  rows: number;
};

export type StatementLine = {
  queryid: string;
  /** The normalised text made short enough for a table row. */
  text: string;
  /** The normalised text as Postgres keeps it (cut at QUERY_KEPT characters), for the JSON report. */
  query: string;
  toplevel: boolean;
  calls: number;
  totalMs: number;
  meanMs: number;
  /** Of the scenario's total: the top-level statements' execution time. */
  share: number;
  rows: number;
  /** Per unit of work (an entry, a durable write), when the scenario counted them. */
  callsPerUnit: number | null;
  msPerUnit: number | null;
  /** 1-based place in each ranking this line made it into. */
  ranks: { total?: number; calls?: number; mean?: number };
};

export type StatementSummary = {
  /** What one unit of work is ("entry", "write"), and how many the scenario completed. */
  unit: { name: string; count: number } | null;
  statements: number;
  /** Top-level statements only: a function's own statements are inside its call's time already. */
  calls: number;
  totalMs: number;
  lines: StatementLine[];
};

export type SummaryLimits = {
  /** Lines ranked by total time. */
  byTotal: number;
  /** Further lines ranked by calls, and by mean time, when not already among the above. */
  byCalls: number;
  byMean: number;
  /** A statement needs this many calls to rank by mean: one-off statements are not where an entry's time goes. */
  meanMinCalls: number;
  textLength: number;
};

export const DEFAULT_LIMITS: SummaryLimits = { byTotal: 8, byCalls: 3, byMean: 3, meanMinCalls: 10, textLength: 110 };

/** Items of a comma-separated list, split only at depth 0 (not inside parentheses); null if they do not balance. */
function topLevelItems(list: string): string[] | null {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return null;
    else if (c === ',' && depth === 0) {
      items.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (depth !== 0) return null;
  items.push(list.slice(start).trim());
  return items;
}

const LONG_LIST = 4;
/** Of a cut text, the end kept: where `for update`, `returning` or `limit` say what a statement does. */
const TAIL_KEPT = 40;
const QUERY_KEPT = 2000;

/**
 * A normalised statement, readable in one table row: identifiers unquoted, runs of placeholders
 * and long column lists folded to their first item and a count, then cut at `maxLength`.
 * drizzle quotes every identifier and lists every column, which hides what a statement does.
 */
export function shortenQuery(query: string, maxLength = DEFAULT_LIMITS.textLength): string {
  let text = query.replace(/\s+/g, ' ').trim();
  text = text.replace(/"([a-z_][a-z0-9_$]*)"/g, '$1');
  // (a, b, c, d, e) with no parentheses inside  →  (a, … 5 items); ($1, $2, $3, $4)  →  ($1…$4)
  text = text.replace(/\(([^()]*)\)/g, (group, inner: string) => {
    const items = inner.split(',').map((item) => item.trim());
    if (items.length < LONG_LIST) return group;
    if (items.every((item) => /^\$\d+$/.test(item))) return `(${items[0]}…${items.at(-1)})`;
    return `(${items[0]}, … ${items.length} items)`;
  });
  // select a, b, c, d, e from  →  select a, … 5 columns from
  text = text.replace(/\bselect (.+?) from\b/gi, (clause, list: string) => {
    const items = topLevelItems(list);
    return items && items.length >= LONG_LIST ? `select ${items[0]}, … ${items.length} columns from` : clause;
  });
  if (text.length <= maxLength) return text;
  // The start says what and where; the end often says how (a lock, a limit): keep both.
  const tail = Math.min(TAIL_KEPT, Math.floor(maxLength / 3));
  return `${text.slice(0, maxLength - tail - 3)} … ${text.slice(-tail)}`;
}

/** The top `count` rows by `key`, largest first (ties keep the rows' order). */
function topBy(rows: StatementRow[], key: (row: StatementRow) => number, count: number): StatementRow[] {
  return [...rows].sort((a, b) => key(b) - key(a)).slice(0, count);
}

/**
 * The lines worth showing: the top by total time, then any of the top by calls and by mean time
 * not already there, ordered by total time. Shares are of the top-level total, so a statement
 * inside a function and the function's call are each measured against the same whole.
 */
export function summariseStatements(
  rows: StatementRow[],
  unit: { name: string; count: number } | null,
  limits: SummaryLimits = DEFAULT_LIMITS,
): StatementSummary {
  const toplevel = rows.filter((r) => r.toplevel);
  const totalMs = toplevel.reduce((sum, r) => sum + r.totalMs, 0);
  const calls = toplevel.reduce((sum, r) => sum + r.calls, 0);
  const rankings = {
    total: topBy(rows, (r) => r.totalMs, limits.byTotal),
    calls: topBy(rows, (r) => r.calls, limits.byCalls),
    mean: topBy(
      rows.filter((r) => r.calls >= limits.meanMinCalls),
      (r) => r.totalMs / r.calls,
      limits.byMean,
    ),
  };
  const chosen = new Map<StatementRow, StatementLine['ranks']>();
  for (const [ranking, ranked] of Object.entries(rankings) as Array<[keyof StatementLine['ranks'], StatementRow[]]>) {
    ranked.forEach((row, index) => chosen.set(row, { ...chosen.get(row), [ranking]: index + 1 }));
  }
  const perUnit = (n: number) => (unit && unit.count > 0 ? n / unit.count : null);
  const lines = [...chosen.entries()]
    .sort(([a], [b]) => b.totalMs - a.totalMs)
    .map(([row, ranks]) => ({
      queryid: row.queryid,
      text: shortenQuery(row.query, limits.textLength),
      query: row.query.slice(0, QUERY_KEPT),
      toplevel: row.toplevel,
      calls: row.calls,
      totalMs: row.totalMs,
      meanMs: row.calls > 0 ? row.totalMs / row.calls : 0,
      share: totalMs > 0 ? row.totalMs / totalMs : 0,
      rows: row.rows,
      callsPerUnit: perUnit(row.calls),
      msPerUnit: perUnit(row.totalMs),
      ranks,
    }));
  return { unit, statements: rows.length, calls, totalMs, lines };
}

const ms = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 1 ? 1 : 3));
const perUnit = (n: number | null, digits: number) => (n === null ? '–' : n.toFixed(digits));
/** A pipe inside a statement (`||`, jsonb operators) would end the markdown cell. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

function rankLabel(ranks: StatementLine['ranks']): string {
  return [ranks.total && `total #${ranks.total}`, ranks.calls && `calls #${ranks.calls}`, ranks.mean && `mean #${ranks.mean}`].filter(Boolean).join(', ');
}

/** A markdown table (it reads as well in a terminal) with a one-line total above it. */
export function renderStatementSummary(title: string, summary: StatementSummary): string[] {
  const unit = summary.unit;
  const per = unit && unit.count > 0 ? `; per ${unit.name} (${unit.count.toLocaleString('en-US')}): ${(summary.calls / unit.count).toFixed(2)} statements, ${(summary.totalMs / unit.count).toFixed(3)} ms` : '';
  const unitName = unit?.name ?? 'unit';
  return [
    `**${title}**: ${summary.statements} distinct statements, ${summary.calls.toLocaleString('en-US')} top-level calls, ${ms(summary.totalMs)} ms executing${per}.`,
    '',
    `| Statement | ranked by | calls | calls/${unitName} | total ms | mean ms | ms/${unitName} | share | rows |`,
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...summary.lines.map(
      (l) =>
        `| ${l.toplevel ? '' : '↳ (in a function) '}\`${cell(l.text)}\` | ${rankLabel(l.ranks)} | ${l.calls.toLocaleString('en-US')} | ${perUnit(l.callsPerUnit, 2)} | ${ms(l.totalMs)} | ${l.meanMs.toFixed(3)} | ${perUnit(l.msPerUnit, 3)} | ${(l.share * 100).toFixed(1)}% | ${l.rows.toLocaleString('en-US')} |`,
    ),
  ];
}
