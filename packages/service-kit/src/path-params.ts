import { Type } from '@sinclair/typebox';

/**
 * A path parameter's schema. Path values reach SQL as parameters; Postgres text cannot hold NUL,
 * so control characters are refused up front.
 */
export const pathString = (description: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000-\\u001f]+$', description });
