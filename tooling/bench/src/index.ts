export { parseBenchArgs, type BenchOptions } from './args.js';
export { ratio, svcVsPortkey, withOverhead } from './compare.js';
export type { Measurement } from './measure.js';
export { percentile, summarise, type LatencySummary } from './percentiles.js';
export { parseStatTicks, parseStatusKb, readProc } from './proc-stats.js';
export { renderReport, renderResults, renderRatios, spliceGenerated, type BenchReport } from './render.js';
export { runBench } from './run-bench.js';
