import { Type } from '@sinclair/typebox';
import { managementResponses } from '../responses.js';

/** managementResponses for a route that answers 204 with no body (it only takes 200, 201 and 202). */
export function noContentResponses() {
  const { 200: _unused, ...errors } = managementResponses(200, Type.Null());
  return { 204: Type.Null({ description: 'Done; no body.' }), ...errors };
}
