/** A tagged template that builds a statement: postgres.js's `sql`, or drizzle-orm's `sql`. */
type StatementTag<Statement> = (strings: TemplateStringsArray, ...values: Array<string | number>) => Statement;

export type IdempotentResponse = { apiKeyId: string; key: string; status: number; body: string };

/**
 * The UPDATE that stores the response of the request holding an `Idempotency-Key`, written once
 * for the two ways it runs: on postgres.js on its own (the data plane's hot path, prepared,
 * no query builder) and through drizzle inside the transaction of the change it answers. Both
 * `sql` tags take the same template, so the two cannot drift apart.
 *
 * With `claimToken` the response is stored only while that request still holds the claim. Without
 * it, any in-progress record takes it: the transaction of a change commits its answer with it, and
 * the change is what a retry must be told about, even by a request whose claim was taken over.
 */
export function idempotentResponseStatement<Statement>(tag: StatementTag<Statement>, response: IdempotentResponse, claimToken?: string): Statement {
  if (claimToken === undefined) {
    return tag`
      update idempotency_records set state = 'completed', response_status = ${response.status}, response_body = ${response.body}
      where api_key_id = ${response.apiKeyId} and key = ${response.key} and state = 'in_progress'`;
  }
  return tag`
    update idempotency_records set state = 'completed', response_status = ${response.status}, response_body = ${response.body}
    where api_key_id = ${response.apiKeyId} and key = ${response.key} and state = 'in_progress' and claim_token = ${claimToken}`;
}
