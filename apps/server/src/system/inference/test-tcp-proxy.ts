import { type Server, type Socket, connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A TCP proxy to a real service that a test can cut (refused), blackhole (accepted, never answered) and restore. */
export interface TcpProxy {
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlOf(url: string): string;
  /** Drops every connection and refuses new ones (the service is down). */
  cut(): Promise<void>;
  /** Drops every connection and accepts new ones without ever answering (a blackholed host). */
  blackhole(): Promise<void>;
  /** Keeps every connection open but forwards nothing more, either way (a network partition). */
  stall(): void;
  /** Forwards again. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let mode: 'forward' | 'blackhole' = 'forward';
  let server: Server | undefined;
  let port = 0;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        track(client);
        if (mode === 'blackhole') return;
        const upstream = connect(target.port, target.host);
        track(upstream);
        client.pipe(upstream).pipe(client);
        const pair: [Socket, Socket] = [client, upstream];
        pairs.add(pair);
        client.on('close', () => {
          pairs.delete(pair);
          upstream.destroy();
        });
        upstream.on('close', () => client.destroy());
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        resolve();
      });
    });
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  const stop = () => {
    dropAll();
    const closing = server;
    server = undefined;
    return closing ? new Promise<void>((resolve) => closing.close(() => resolve())) : Promise.resolve();
  };
  await listen();
  return {
    get port() {
      return port;
    },
    urlOf(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    cut: stop,
    stall() {
      mode = 'blackhole';
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    async blackhole() {
      mode = 'blackhole';
      dropAll();
      if (!server) await listen();
    },
    async restore() {
      mode = 'forward';
      dropAll();
      if (!server) await listen();
    },
    close: stop,
  };
}
