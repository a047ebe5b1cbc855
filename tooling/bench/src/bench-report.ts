import type { CacheBenchReport } from './cache-figures.js';
import type { EncoderBenchReport } from './encoder-bench.js';
import type { FallbackReport } from './fallback.js';
import type { MachineInfo } from './machine.js';
import type { Measurement } from './measure.js';
import type { ProcessMemory } from './process-memory.js';
import type { ReportLoopReport } from './report-loop.js';
import type { RouterBenchResult } from './router-bench.js';
import type { SemanticCost } from './semantic-cost.js';
import type { SoakReport } from './soak.js';
import type { StoresReport } from './stores-bench.js';
import type { IntelligenceMode, TargetName } from './target.js';
import type { TtftReport } from './ttft-bench.js';

/** Everything one bench run produced; also the shape of the JSON results file. */
export interface BenchReport {
  machine: MachineInfo;
  settings: {
    durationSec: number;
    warmupSec: number;
    connections: number[];
    stream: boolean;
    tokens: number;
    rate?: number;
    /** How processes were placed on CPUs, in words. */
    pinning: string;
    /** The `x-intelligence-mode` every svc request of the main and fallback runs states. */
    svcMode?: IntelligenceMode;
    /** Seconds each gateway was left alone after it was ready before its idle RSS was read. */
    settleSec?: number;
    versions: Record<string, string>;
  };
  measurements: Measurement[];
  /** Targets that were asked for but could not be measured, with the reason. */
  skipped: Partial<Record<TargetName, string>>;
  /** Caveats about how a target was run (shims, known upstream bugs). */
  notes: string[];
  /** `--fallback`: normal vs failed attempt + fallback on svc. */
  fallback?: FallbackReport;
  /** The in-process routing decision (`--only router`, or by default). */
  router?: RouterBenchResult;
  /** The semantic cache in process: embedding and lookup cost (`--only semantic`, or by default). */
  semantic?: SemanticCost;
  /** The answer cache: exact hit vs miss vs proxy over HTTP (`--only cache`, or by default). */
  cache?: CacheBenchReport;
  /** The local sentence encoder: hashed vs minilm over HTTP (`--only encoder`, or by default). */
  encoder?: EncoderBenchReport;
  /** Time to first token, one streamed request at a time, per HTTP target (`--ttft-requests`). */
  ttft?: TtftReport;
  /** svc in proxy mode on a seeded ledger, alone and beside a report loop (`--only report-loop`, or by default). */
  reportLoop?: ReportLoopReport;
  /** svc's proxy, exact-hit and miss runs on PostgreSQL + Redis (`--only stores`, or by default; needs the URLs). */
  stores?: StoresReport;
  /** `--soak`: RSS of a svc under moderate proxy load over minutes. */
  soak?: SoakReport;
  /** Idle and peak RSS of every gateway process the run started. */
  processes?: ProcessMemory[];
}
