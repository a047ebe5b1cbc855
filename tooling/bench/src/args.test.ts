import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from './args.js';

describe('parseBenchArgs', () => {
  it('has defaults for a full run', () => {
    expect(parseBenchArgs([])).toMatchObject({
      durationSec: 10,
      warmupSec: 2,
      connections: [1, 10, 50],
      only: ['direct', 'floor', 'svc', 'svc-otel', 'portkey'],
      router: true,
      cache: true,
      encoder: true,
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
    expect(() => parseBenchArgs(['--only', 'kong'])).toThrow(/--only: unknown part "kong" \(use direct,floor,svc,svc-otel,portkey,router,semantic,cache,encoder\)/);
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
});
