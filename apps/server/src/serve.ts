import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

export interface FetchApp {
  fetch: (request: Request) => Response | Promise<Response>;
}

export interface Listening {
  name: string;
  server: Server;
  port: number;
}

/** How long a client may take to send one request. */
export interface ListenLimits {
  /**
   * Longest time to receive a whole request (headers and body), ms: a client trickling its body
   * (slow loris) is answered 408 and cut. Responses (streams) are not bounded by it.
   */
  requestTimeoutMs: number;
}

/** Starts one app on a port (0 = any free port) and resolves once it listens. */
export function listen(name: string, app: FetchApp, port: number, hostname: string, limits: ListenLimits): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const serverOptions = {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: Math.min(66_000, limits.requestTimeoutMs),
      // Node checks the request timeout on this period (30 s by default, which would let a slow body overstay by as much).
      connectionsCheckingInterval: Math.min(1_000, limits.requestTimeoutMs),
    };
    const server = serve({ fetch: app.fetch, port, hostname, serverOptions }, (info: AddressInfo) => resolve({ name, server: server as Server, port: info.port })) as Server;
    server.once('error', reject);
    // Streams may be quiet for a while between keep-alives; let idle sockets live longer than LB defaults.
    server.keepAliveTimeout = 65_000;
  });
}

/**
 * Graceful stop: stop accepting, let in-flight requests and streams finish within `graceMs`,
 * then cut what is left.
 */
export async function shutdown(servers: readonly Listening[], graceMs: number): Promise<void> {
  await Promise.all(
    servers.map(
      ({ server }) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => server.closeAllConnections(), graceMs);
          timer.unref();
          server.close(() => {
            clearTimeout(timer);
            resolve();
          });
          server.closeIdleConnections();
        }),
    ),
  );
}
