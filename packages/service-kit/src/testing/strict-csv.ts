import { UTF8_BOM } from '../csv/csv-stream.js';

/** A CSV file read back: whether it opened with the UTF-8 BOM, its header line and its records. */
export type ParsedCsv = { bom: boolean; header: string[]; rows: string[][] };

/**
 * Reads CSV exactly as RFC 4180 writes it, and refuses anything else: records end with CRLF (the
 * last one too), a field is either bare (no quote, CR or LF in it) or quoted with inner quotes
 * doubled, a closing quote is followed by a comma or the end of the record, and every record has
 * as many fields as the header. Lenient parsers would accept a file our writer must never produce.
 */
export function parseStrictCsv(text: string): ParsedCsv {
  const bom = text.startsWith(UTF8_BOM);
  const records: string[][] = [];
  let record: string[] = [];
  let at = bom ? UTF8_BOM.length : 0;
  const fail = (why: string): never => {
    throw new Error(`not strict CSV at offset ${at} (record ${records.length + 1}): ${why}`);
  };
  while (at < text.length) {
    let field: string;
    if (text[at] === '"') {
      field = '';
      at++;
      for (;;) {
        const quote = text.indexOf('"', at);
        if (quote === -1) fail('a quoted field never closes');
        field += text.slice(at, quote);
        if (text[quote + 1] === '"') {
          field += '"';
          at = quote + 2;
        } else {
          at = quote + 1;
          break;
        }
      }
    } else {
      let end = at;
      while (end < text.length && text[end] !== ',' && text[end] !== '\r' && text[end] !== '\n') {
        if (text[end] === '"') {
          at = end;
          fail('a quote inside a bare field');
        }
        end++;
      }
      field = text.slice(at, end);
      at = end;
    }
    record.push(field);
    if (text[at] === ',') {
      at++;
      if (at === text.length) fail('the file ends after a comma');
    } else if (text[at] === '\r' && text[at + 1] === '\n') {
      at += 2;
      records.push(record);
      record = [];
    } else {
      fail(at === text.length ? 'the last record does not end with CRLF' : `${JSON.stringify(text[at])} after a field`);
    }
  }
  const [header, ...rows] = records;
  if (!header) throw new Error('not strict CSV: no header line');
  rows.forEach((row, i) => {
    if (row.length !== header.length) throw new Error(`not strict CSV: record ${i + 2} has ${row.length} fields, the header ${header.length}`);
  });
  return { bom, header, rows };
}

/** The records as objects keyed by the header's names. */
export const csvObjects = (csv: ParsedCsv): Record<string, string>[] =>
  csv.rows.map((row) => Object.fromEntries(csv.header.map((name, i) => [name, row[i]!])));

/**
 * What a field of a JSON resource reads back as from its CSV cell, by the rules the exports
 * document: absent is empty, a number its digits, an object its compact JSON, and text that opens
 * like a formula (`=`, `+`, `-`, `@`, tab, CR) has a `'` before it.
 */
export function csvCellReadBack(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
