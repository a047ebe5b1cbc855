import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { GatewayError } from '@svc/core';
import { errorResponse } from '@svc/http-kit';

/**
 * Answers a WebSocket upgrade with an ordinary HTTP error (the spec's JSON body, `x-error-id`,
 * `retry-after` where the error has one) and closes the connection: a refused session is never
 * an accepted socket that then dies.
 */
export async function refuseUpgrade(socket: Duplex, error: GatewayError, requestId?: string, headers?: Record<string, string>): Promise<void> {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const response = errorResponse(error, requestId, headers);
  const body = Buffer.from(await response.text());
  let head = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? 'Error'}\r\n`;
  response.headers.forEach((value, name) => {
    head += `${name}: ${value}\r\n`;
  });
  head += `content-length: ${body.length}\r\nconnection: close\r\n\r\n`;
  socket.end(Buffer.concat([Buffer.from(head), body]));
}
