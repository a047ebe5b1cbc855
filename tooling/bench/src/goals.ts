import type { CacheBenchReport } from './cache-figures.js';
import { ratio } from './compare.js';
import type { Goal } from './goal-verdict.js';
import type { Measurement } from './measure.js';
import type { ProcessMemory } from './process-memory.js';
import type { ReportLoopReport } from './report-loop.js';
import type { SoakReport } from './soak.js';
import { ttftAdded } from './ttft.js';
import type { TtftReport } from './ttft-bench.js';

export { type Goal, goalMet, goalVerdict } from './goal-verdict.js';

/** The soak the goal asks for, seconds. */
export const SOAK_GOAL_SEC = 600;

/** The connection count issue 34's load goals are read at. */
export const GOAL_CONNECTIONS = 16;

/** Everything of one run the goals read. */
export interface GoalInputs {
  measurements: readonly Measurement[];
  cache?: CacheBenchReport | undefined;
  /** The answer-cache runs on PostgreSQL + Redis. */
  stores?: CacheBenchReport | undefined;
  ttft?: TtftReport | undefined;
  reportLoop?: ReportLoopReport | undefined;
  processes?: readonly ProcessMemory[] | undefined;
  soak?: SoakReport | undefined;
}

const times = (v: number) => `${v.toFixed(2)}×`;
const ms = (v: number) => `${v.toFixed(2)} ms`;
const NOT = '–';

function goal(text: string, limit: number, unit: Goal['unit'], found: { value: number; figure: string } | undefined, bound: Goal['bound'] = 'most'): Goal {
  return { goal: text, limit, unit, bound, value: found?.value, figure: found?.figure ?? NOT };
}

/** The connection count the load goals use: 16 when the floor ran at 16, else its widest. */
export function goalConnections(ms: readonly Measurement[]): number | undefined {
  const floors = ms.filter((m) => m.target === 'floor' && !m.stream).map((m) => m.connections);
  if (floors.length === 0) return undefined;
  return floors.includes(GOAL_CONNECTIONS) ? GOAL_CONNECTIONS : Math.max(...floors);
}

const json = (ms: readonly Measurement[], target: Measurement['target'], c: number | undefined) => ms.find((m) => m.target === target && m.connections === c && !m.stream && m.rate === undefined);

function ttftGoals(t: TtftReport | undefined): Goal[] {
  const row = (label: string) => t?.rows.find((r) => r.label === label);
  const direct = row('direct')?.summary;
  const added = (label: string) => {
    const r = row(label);
    return r ? ttftAdded(r.summary, direct)?.p50 : undefined;
  };
  const floor = added('floor');
  const proxy = added('svc, proxy mode');
  const proxyRatio = ratio(proxy, floor);
  const absolute = (label: string) => {
    const a = added(label);
    return a === undefined ? undefined : { value: a, figure: `+${ms(a)} (median over ${t?.requests}; the mock's own ${ms(direct?.p50 ?? Number.NaN)})` };
  };
  return [
    goal('time to first token added, proxy mode ≤ 1.5× the floor\'s added time', 1.5, '×', proxyRatio === undefined ? undefined : { value: proxyRatio, figure: `${times(proxyRatio)} (+${ms(proxy ?? 0)} vs the floor's +${ms(floor ?? 0)}, medians)` }),
    goal('time to first token added, cache mode (a miss) ≤ 6 ms', 6, 'ms', absolute('svc, cache mode, unique prompts (misses)')),
    goal('time to first token added, full mode (a miss) ≤ 6 ms', 6, 'ms', absolute('svc, full mode, unique prompts (misses)')),
  ];
}

function perFloor(m: Measurement | undefined, floor: Measurement | undefined, pick: (x: Measurement) => number, unit: string, c: number | undefined) {
  const r = m && floor ? ratio(pick(m), pick(floor)) : undefined;
  return r === undefined || !m || !floor ? undefined : { value: r, figure: `${times(r)} (${pick(m).toFixed(unit === 'ms' ? 2 : 0)} vs ${pick(floor).toFixed(unit === 'ms' ? 2 : 0)} ${unit}, ${c} conn)` };
}

const cpu = (m: Measurement) => m.cpuUsPerRequest;
const p99 = (m: Measurement) => m.load.latency.p99;

function loopMax(m: Measurement | undefined, what: string) {
  const e = m?.eventLoop;
  return e ? { value: e.maxMs, figure: `${ms(e.maxMs)} max, p99 ${ms(e.p99Ms)} (${what})` } : undefined;
}

function loadGoals(inputs: GoalInputs): Goal[] {
  const c = goalConnections(inputs.measurements);
  const floor = json(inputs.measurements, 'floor', c);
  const svc = json(inputs.measurements, 'svc', c);
  const portkey = json(inputs.measurements, 'portkey', c);
  const hit = inputs.cache?.scenarios.find((s) => s.connections === c && s.rate === undefined)?.runs.hit?.measurement;
  const miss = inputs.cache?.scenarios.find((s) => s.connections === c && s.rate === undefined)?.runs.miss?.measurement;
  const throughput = svc && portkey ? ratio(svc.load.rps, portkey.load.rps) : undefined;
  const withReports = inputs.reportLoop?.withReports;
  return [
    goal(`p99 at ${GOAL_CONNECTIONS} connections, proxy mode ≤ 2× the floor`, 2, '×', c === GOAL_CONNECTIONS ? perFloor(svc, floor, p99, 'ms', c) : undefined),
    goal('event-loop delay max under proxy load ≤ 5 ms', 5, 'ms', loopMax(svc, `proxy mode, ${c} conn`)),
    goal(`event-loop delay max under proxy load with a dashboard report over the ledger in a loop ≤ 5 ms`, 5, 'ms', loopMax(withReports, `${inputs.reportLoop?.ledgerRows.toLocaleString('en-US')} ledger rows, ${withReports?.connections} conn`)),
    goal('CPU per proxied request (all threads) ≤ 4× the floor', 4, '×', perFloor(svc, floor, cpu, 'µs', c)),
    goal('CPU per exact hit ≤ 2× the floor', 2, '×', perFloor(hit, floor, cpu, 'µs', c)),
    goal('CPU per full-mode miss, with the encoder, ≤ 3 ms', 3, 'ms', miss ? { value: miss.cpuUsPerRequest / 1000, figure: `${ms(miss.cpuUsPerRequest / 1000)} (unique questions, ${c} conn)` } : undefined),
    goal('proxy-mode throughput ≥ 4× Portkey\'s', 4, '×', throughput === undefined ? undefined : { value: throughput, figure: `${times(throughput)} (${svc?.load.rps.toFixed(0)} vs ${portkey?.load.rps.toFixed(0)} req/s, ${c} conn)` }, 'least'),
  ];
}

function memoryGoals(inputs: GoalInputs): Goal[] {
  const shipped = (inputs.processes ?? []).filter((p) => p.shippedDefaults);
  // The main svc is `pnpm start` on a new data directory; without it, another such process.
  const main = shipped.find((p) => p.label === 'svc') ?? shipped.find((p) => !p.seeded);
  const peak = shipped.reduce<ProcessMemory | undefined>((top, p) => (top === undefined || p.peakRssMb > top.peakRssMb ? p : top), undefined);
  return [
    goal('gateway RSS idle after start ≤ 200 MB', 200, 'MB', main ? { value: main.idleRssMb, figure: `${main.idleRssMb.toFixed(0)} MB (${main.label})` } : undefined),
    goal('gateway peak RSS over the whole bench ≤ 300 MB', 300, 'MB', peak ? { value: peak.peakRssMb, figure: `${peak.peakRssMb.toFixed(0)} MB (${peak.label}; the highest of ${shipped.length} svc process${shipped.length === 1 ? '' : 'es'} on the shipped defaults)` } : undefined),
    soakGoal(inputs.soak),
  ];
}

/** The soak goal; a soak shorter than ten minutes is shown but not judged. */
function soakGoal(soak: SoakReport | undefined): Goal {
  const f = soak?.figures;
  const text = '10-minute soak: RSS flat within 10%';
  if (!soak || !f) return goal(text, 10, '%', undefined);
  const figure = `${f.min.toFixed(0)}-${f.max.toFixed(0)} MB${f.from > 0 ? ` after the first ${f.from} s` : ''} (first ${f.first.toFixed(0)}, last ${f.last.toFixed(0)}), range ${(f.range * 100).toFixed(1)}%, over ${soak.durationSec} s`;
  if (soak.durationSec < SOAK_GOAL_SEC) return { ...goal(text, 10, '%', undefined), figure: `${figure}: shorter than the ${SOAK_GOAL_SEC} s the goal asks` };
  return goal(text, 10, '%', { value: f.range * 100, figure });
}

function storesGoals(inputs: GoalInputs): Goal[] {
  if (!inputs.stores) return [];
  const c = goalConnections(inputs.measurements);
  const floor = json(inputs.measurements, 'floor', c);
  const runs = inputs.stores.scenarios.find((s) => s.connections === c && s.rate === undefined)?.runs;
  const proxy = runs?.proxy?.measurement;
  const label = ' (production stores)';
  return [
    goal(`p99 at ${GOAL_CONNECTIONS} connections, proxy mode ≤ 2× the floor${label}`, 2, '×', c === GOAL_CONNECTIONS ? perFloor(proxy, floor, p99, 'ms', c) : undefined),
    goal(`event-loop delay max under proxy load ≤ 5 ms${label}`, 5, 'ms', loopMax(proxy, `proxy mode, ${c} conn`)),
    goal(`CPU per proxied request ≤ 4× the floor${label}`, 4, '×', perFloor(proxy, floor, cpu, 'µs', c)),
    goal(`CPU per exact hit ≤ 2× the floor${label}`, 2, '×', perFloor(runs?.hit?.measurement, floor, cpu, 'µs', c)),
  ];
}

/** Issue 34's goals judged on one run (a goal whose figure the run lacks is left unmeasured). */
export function lightGoals(inputs: GoalInputs): Goal[] {
  return [...ttftGoals(inputs.ttft), ...loadGoals(inputs), ...memoryGoals(inputs), ...storesGoals(inputs)];
}
