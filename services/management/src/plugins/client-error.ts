import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { newId } from '@raffle/db';

/**
 * Requests Node's HTTP parser rejects never become Fastify requests. They still get the
 * management error body; `path` is `/` because no request line could be trusted.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message]: [number, string] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'the request took too long to arrive']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'request headers are too large']
        : [400, 'the request is not valid HTTP/1.1'];
  const requestId = newId('request');
  const body = JSON.stringify({
    statusCode: status,
    error: STATUS_CODES[status],
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
