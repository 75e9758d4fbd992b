import { operationsOf, jsonMedia, type Operation, type OpenApiDocumentJson } from './document-types.js';

/**
 * How a service's document names the error codes each operation can answer. A route declares
 * its own codes once, as `x-error-codes` in its schema; the codes every route of the service can
 * answer (auth, validation, rate limit, internal, unavailable...) come from `commonCodes`.
 */
export type ErrorCodeDocumentation = {
  /** The status each code answers with (the closed catalogue). */
  statusOf: Readonly<Record<string, number>>;
  /** The codes this operation can answer besides those its route declares. */
  commonCodes: (operation: Operation) => readonly string[];
  /**
   * Where a body carries its code. `code-field`: the data plane's `code`, documented per response
   * as an enum. `message-prefix`: management's body has no `code` (the spec forbids one); every
   * message leads with `CODE: ` instead, so the codes are listed per response as `x-error-codes`
   * and in the description, where a schema cannot enforce a prefix of a free text.
   */
  carrier: 'code-field' | 'message-prefix';
  /** The component name of the service's error body, e.g. `ErrorBody`. */
  errorBody: string;
};

/** Why a status listed on every route has no code on this operation (the spec lists the data plane's, product.md management's). */
const RESERVED: Record<ErrorCodeDocumentation['carrier'], string> = {
  'code-field': 'Listed on every route by the spec; this operation does not answer it today.',
  'message-prefix': 'Listed on every route of this API; this operation does not answer it today.',
};

/**
 * Gives each operation `x-error-codes` (every code it can answer) and each of its error
 * responses the codes of that status: as an enum of `code` (code-field) or as `x-error-codes`.
 */
export function documentErrorCodes(document: OpenApiDocumentJson, options: ErrorCodeDocumentation) {
  const bodyRef = `#/components/schemas/${options.errorBody}`;
  for (const entry of operationsOf(document)) {
    const { operation } = entry;
    const declared: string[] = operation['x-error-codes'] ?? [];
    const codes = [...new Set([...options.commonCodes(entry), ...declared])];
    for (const code of codes) {
      if (options.statusOf[code] === undefined) throw new Error(`${operation.operationId}: error code ${code} is not in the catalogue`);
    }
    if (codes.length === 0) continue;
    operation['x-error-codes'] = codes;

    for (const [status, response] of Object.entries<Record<string, unknown>>(operation.responses ?? {})) {
      const media = jsonMedia(response);
      if (media?.schema?.$ref !== bodyRef) continue;
      const ofStatus = codes.filter((code) => String(options.statusOf[code]) === status);
      response['x-error-codes'] = ofStatus;
      if (ofStatus.length === 0) {
        response.description = `${RESERVED[options.carrier]} ${String(response.description ?? '')}`.trim();
        continue;
      }
      if (options.carrier === 'code-field') {
        media.schema = {
          allOf: [{ $ref: bodyRef }, { type: 'object', required: ['code'], properties: { code: { type: 'string', enum: ofStatus } } }],
        };
        response.description = `${String(response.description ?? '')} \`code\`: ${ofStatus.map((c) => `\`${c}\``).join(', ')}.`.trim();
      } else {
        response.description = `${String(response.description ?? '')} \`message\` starts with its code: ${ofStatus.map((c) => `\`${c}: \``).join(', ')}.`.trim();
      }
    }
  }
}
