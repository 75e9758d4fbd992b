/** The parts of an OpenAPI 3.1 document the finishing steps read and write: plain JSON. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonObject = Record<string, any>;

export type OpenApiDocumentJson = JsonObject & {
  paths: Record<string, Record<string, JsonObject>>;
  components: JsonObject & { schemas?: Record<string, JsonObject> };
};

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export type Operation = { path: string; method: string; operation: JsonObject };

/** Every operation of the document, in document order. */
export function operationsOf(document: OpenApiDocumentJson): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) if (item[method]) operations.push({ path, method, operation: item[method] });
  }
  return operations;
}

/** The content schema of a JSON response or request body, if it has one. */
export function jsonMedia(holder: JsonObject | undefined): JsonObject | undefined {
  return holder?.content?.['application/json'];
}
