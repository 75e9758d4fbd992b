import { Readable } from 'node:stream';
import { csvLine } from './csv-cell.js';

/** Makes spreadsheets (Excel above all) read the file as UTF-8 rather than in the system's code page. */
export const UTF8_BOM = '\uFEFF';

/** The fields of a record a CSV file has as columns, in column order; the header line names them. */
export type CsvColumns<T> = readonly (keyof T & string)[];

/** The records' lines, one after the other. */
export function csvLines<T>(columns: CsvColumns<T>, records: readonly T[]): string {
  let text = '';
  for (const record of records) text += csvLine(columns.map((column) => record[column]));
  return text;
}

/**
 * A CSV file as a byte stream: the BOM and the header line, then each batch of records as one
 * chunk. A batch is pulled only when the reader has taken the bytes before it (the stream's
 * backpressure), so memory holds a batch or two whatever the file's length; destroying the stream
 * (a client that went away) ends the batch iterator, so nothing more is read for it.
 */
export function csvStream<T>(columns: CsvColumns<T>, batches: AsyncIterable<readonly T[]>): Readable {
  async function* chunks() {
    yield Buffer.from(UTF8_BOM + csvLine(columns), 'utf8');
    for await (const batch of batches) if (batch.length > 0) yield Buffer.from(csvLines(columns, batch), 'utf8');
  }
  return Readable.from(chunks(), { objectMode: false });
}
