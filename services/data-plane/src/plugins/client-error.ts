import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from '@raffle/contracts';
import { newId } from '@raffle/db';

/**
 * Requests Node's HTTP parser rejects never become Fastify requests. They still get the spec's
 * error body; `path` is `/` because no request line could be trusted.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message]: [number, ErrorCode, string] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'REQUEST_TIMEOUT', 'the request took too long to arrive']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'HEADERS_TOO_LARGE', 'request headers are too large']
        : [400, 'MALFORMED_REQUEST', 'the request is not valid HTTP/1.1'];
  const requestId = newId('request');
  const body = JSON.stringify({
    statusCode: status,
    error: STATUS_CODES[status],
    code,
    message,
    requestId,
    timestamp: new Date().toISOString(),
    path: '/',
  });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
