import type { CacheBenchReport } from './cache-figures.js';
import type { EncoderBenchReport } from './encoder-bench.js';
import type { FallbackReport } from './fallback.js';
import type { MachineInfo } from './machine.js';
import type { Measurement } from './measure.js';
import type { RouterBenchResult } from './router-bench.js';
import type { SemanticCost } from './semantic-cost.js';
import type { IntelligenceMode, TargetName } from './target.js';

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
}
