import { Type, type TSchema, type TString } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { csvLine } from './csv-cell.js';
import { csvLines, csvStream, UTF8_BOM, type CsvColumns } from './csv-stream.js';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** What a CSV download sends: its file name, its columns, and its records batch by batch. */
export type CsvAttachment<T> = { filename: string; columns: CsvColumns<T>; batches: AsyncIterable<readonly T[]> };

/** A name that needs no escaping between the quotes of Content-Disposition: anything but `A-Za-z0-9._-` becomes `-`. */
const attachmentName = (filename: string) => filename.replace(/[^A-Za-z0-9._-]/g, '-') || 'export.csv';

/**
 * Streams a CSV file as the answer, to be saved under `filename`. Call it once everything that
 * may refuse the request has run: from here on the status is 200, and a failure while streaming
 * can only cut the download short (the client sees a truncated body, never a half-written error).
 */
export function sendCsvAttachment<T>(reply: FastifyReply, file: CsvAttachment<T>) {
  return reply
    .header('content-type', CSV_CONTENT_TYPE)
    .header('content-disposition', `attachment; filename="${attachmentName(file.filename)}"`)
    .send(csvStream(file.columns, file.batches));
}

/** What every CSV download of the platform is, for its route's description (the writer is csv-cell.ts and csv-stream.ts). */
export const CSV_FORMAT_DESCRIPTION =
  'RFC 4180 CSV in UTF-8, opening with a byte order mark (so spreadsheets read it as UTF-8), with CRLF line endings and a header line of the field names. ' +
  'An absent field is an empty cell; a JSON-valued field is its compact JSON in one cell; a number is written as it is. ' +
  "A text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'`, so a spreadsheet shows it instead of running it as a formula (OWASP, CSV injection). " +
  'The whole list comes in one response with no page limit, streamed as it is read in batches: a row that changes meanwhile shows as it was when its batch was read.';

/**
 * The 200 of a route that answers with sendCsvAttachment, for its schema (and so the OpenAPI
 * document); its example is `records` written by the same writer as the answers.
 */
export function csvAttachmentResponse<T>(options: { description: string; filename: string; columns: CsvColumns<T>; records: readonly T[] }): CsvAttachmentResponse {
  const example = UTF8_BOM + csvLine(options.columns) + csvLines(options.columns, options.records);
  return {
    description: options.description,
    // The example on the media object, where OpenAPI tools show it: @fastify/swagger copies a
    // `content` response as it is, so a schema's `examples` would stay inside the schema.
    content: { 'text/csv': { schema: Type.String({ description: 'RFC 4180 CSV in UTF-8, with a byte order mark and CRLF line endings.' }), example } },
    headers: {
      'Content-Disposition': Type.String({ description: 'Always `attachment`, with the name to save the file under.', examples: [`attachment; filename="${options.filename}"`] }),
    },
  };
}

/** A whole response (media type, headers), where a route's other statuses give a body schema. */
export type CsvAttachmentResponse = { description: string; content: { 'text/csv': { schema: TString; example: string } }; headers: Record<string, TSchema> };
