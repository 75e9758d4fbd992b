import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from '@raffle/contracts';
import { newId } from '@raffle/db';

export type ParserFailure = 'timeout' | 'headers_too_large' | 'malformed';

/** The catalogue's code for each failure; both APIs name it, each in its own body. */
export const PARSER_FAILURE_CODES: Record<ParserFailure, ErrorCode> = {
  timeout: 'REQUEST_TIMEOUT',
  headers_too_large: 'HEADERS_TOO_LARGE',
  malformed: 'MALFORMED_REQUEST',
};

/** The service's error body for a request that never got a request line we could trust. */
export type ClientErrorBody = (failure: ParserFailure, base: { statusCode: number; error: string; message: string; requestId: string; timestamp: string; path: string }) => object;

const FAILURES: Record<ParserFailure, [number, string]> = {
  timeout: [408, 'the request took too long to arrive'],
  headers_too_large: [431, 'request headers are too large'],
  malformed: [400, 'the request is not valid HTTP/1.1'],
};

/**
 * Requests Node's HTTP parser rejects never become Fastify requests. They still get the
 * service's error body (`path` is `/`: no request line could be trusted) and a request id.
 */
export function createClientErrorHandler(body: ClientErrorBody) {
  return (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const failure: ParserFailure =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'timeout' : error.code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : 'malformed';
    const [status, message] = FAILURES[failure];
    const requestId = newId('request');
    const json = JSON.stringify(
      body(failure, { statusCode: status, error: STATUS_CODES[status]!, message, requestId, timestamp: new Date().toISOString(), path: '/' }),
    );
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(json)}\r\nContent-Type: application/json; charset=utf-8\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${json}`,
      );
    }
    socket.destroy(error);
  };
}
