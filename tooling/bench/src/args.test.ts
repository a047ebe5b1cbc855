import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from './args.js';

describe('parseBenchArgs', () => {
  it('has defaults for a full run', () => {
    expect(parseBenchArgs([])).toMatchObject({
      durationSec: 10,
      warmupSec: 2,
      connections: [1, 16],
      only: ['direct', 'floor', 'svc', 'svc-otel', 'portkey'],
      router: true,
      cache: true,
      encoder: true,
      reportLoop: true,
      stores: true,
      ledgerRows: 1_000_000,
      ttftRequests: 80,
      ttftUpstreamMs: 1,
      settleSec: 5,
      stream: false,
      pin: true,
      writeDocs: true,
    });
  });
  it('parses flags, ignoring the -- that pnpm passes through', () => {
    const o = parseBenchArgs(['--', '--duration', '3', '--connections', '5,20', '--only', 'portkey,direct', '--stream', '--no-pin']);
    expect(o).toMatchObject({ durationSec: 3, connections: [5, 20], only: ['direct', 'portkey'], router: false, cache: false, stream: true, pin: false });
  });
  it('runs only the routing decision with --only router', () => {
    expect(parseBenchArgs(['--only', 'router'])).toMatchObject({ only: [], router: true, cache: false, encoder: false });
  });
  it('runs only the answer cache part with --only cache, or with others', () => {
    expect(parseBenchArgs(['--only', 'cache'])).toMatchObject({ only: [], router: false, cache: true });
    expect(parseBenchArgs(['--only', 'svc,cache'])).toMatchObject({ only: ['svc'], router: false, cache: true });
  });
  it('names the bad flag', () => {
    expect(() => parseBenchArgs(['--only', 'kong'])).toThrow(/--only: unknown part "kong" \(use direct,floor,svc,svc-otel,portkey,router,semantic,cache,encoder,report-loop,stores\)/);
    expect(() => parseBenchArgs(['--connections', '10,x'])).toThrow(/--connections/);
    expect(() => parseBenchArgs(['--duration', '0'])).toThrow(/--duration/);
  });

  it('takes an overall rate cap for moderate-load runs', () => {
    expect(parseBenchArgs(['--rate', '300']).rate).toBe(300);
    expect(parseBenchArgs([]).rate).toBeUndefined();
    expect(() => parseBenchArgs(['--rate', '0'])).toThrow(/--rate/);
  });

  it('takes --fallback and repeatable --fallback-env, off by default', () => {
    expect(parseBenchArgs([])).toMatchObject({ fallback: false, fallbackEnv: {} });
    const o = parseBenchArgs(['--fallback', '--fallback-env', 'A_B=1', '--fallback-env', 'C=x=y']);
    expect(o).toMatchObject({ fallback: true, fallbackEnv: { A_B: '1', C: 'x=y' } });
    expect(() => parseBenchArgs(['--fallback', '--fallback-env', 'novalue'])).toThrow(/--fallback-env/);
    expect(() => parseBenchArgs(['--fallback-env', 'A=1'])).toThrow(/needs --fallback/);
  });

  it('takes the production stores from flags, else from BENCH_DATABASE_URL / BENCH_REDIS_URL, and checks their scheme', () => {
    expect(parseBenchArgs([], {}).storeUrls).toEqual({});
    const env = { BENCH_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/svc_bench', BENCH_REDIS_URL: 'redis://127.0.0.1:6379/7' };
    expect(parseBenchArgs([], env).storeUrls).toEqual({ databaseUrl: env.BENCH_DATABASE_URL, redisUrl: env.BENCH_REDIS_URL });
    expect(parseBenchArgs(['--redis-url', 'redis://other:6379/1'], env).storeUrls.redisUrl).toBe('redis://other:6379/1');
    expect(() => parseBenchArgs(['--database-url', 'mysql://x'], {})).toThrow(/--database-url/);
    expect(() => parseBenchArgs(['--redis-url', 'http://x'], {})).toThrow(/--redis-url/);
  });

  it('takes a soak, the time-to-first-token settings and the ledger size', () => {
    expect(parseBenchArgs([]).soakSec).toBeUndefined();
    const o = parseBenchArgs(['--soak', '600', '--soak-rate', '150', '--ttft-requests', '0', '--ttft-upstream-ms', '0.5', '--ledger-rows', '20000', '--settle', '0']);
    expect(o).toMatchObject({ soakSec: 600, soakRate: 150, ttftRequests: 0, ttftUpstreamMs: 0.5, ledgerRows: 20_000, settleSec: 0 });
    expect(() => parseBenchArgs(['--ttft-requests', '2.5'])).toThrow(/--ttft-requests/);
    expect(() => parseBenchArgs(['--soak', '0'])).toThrow(/--soak/);
  });

  it('runs only the report loop or the production stores with --only', () => {
    expect(parseBenchArgs(['--only', 'report-loop'])).toMatchObject({ only: [], reportLoop: true, stores: false, cache: false });
    expect(parseBenchArgs(['--only', 'stores,floor'])).toMatchObject({ only: ['floor'], reportLoop: false, stores: true });
  });
});
