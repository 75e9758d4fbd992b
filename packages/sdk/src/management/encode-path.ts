/**
 * A tagged template for API paths: every interpolated value is one path segment and is passed
 * through encodeURIComponent, so an id holding `/`, `?`, `#` or `%` cannot reach another route.
 */
export function encodePath(strings: TemplateStringsArray, ...segments: string[]): string {
  return strings.reduce((path, literal, index) => path + literal + (index < segments.length ? encodeURIComponent(segments[index]!) : ''), '');
}
