/**
 * COPY takes no bind parameters, so the ids its queries name are written into the statement.
 * Only ids made of letters, digits and `_` (every id composeId makes) are let through, which
 * cannot close or escape a quoted literal; anything else is refused, not escaped.
 */
export function copyIdLiteral(id: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(id)) throw new Error(`${JSON.stringify(id)} is not an id a COPY statement can name`);
  return `'${id}'`;
}
