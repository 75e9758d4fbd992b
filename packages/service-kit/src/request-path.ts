/**
 * A request URL's path without its query string: what error bodies show as `path`, what routes
 * are matched on, and all a log keeps (a query string can carry a secret: `?api_key=…`).
 */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
