export { parseBenchArgs, type BenchOptions } from './args.js';
export { ratio, svcVsPortkey, withOverhead } from './compare.js';
export type { Measurement } from './measure.js';
export { percentile, summarise, type LatencySummary } from './percentiles.js';
export { parseStatTicks, parseStatusKb, readProc } from './proc-stats.js';
export {
  fallbackFigures,
  fallbackPair,
  type FallbackReport,
  type FallbackResult,
  runFallback,
} from './fallback.js';
export {
  renderCacheSection,
  renderFallback,
  renderReport,
  renderResults,
  renderRatios,
  renderRouter,
  spliceGenerated,
  type BenchReport,
} from './render.js';
export { runBench } from './run-bench.js';
export { benchCatalogModels, type RouterBenchResult, routerWorkload, runRouterBench } from './router-bench.js';
export { type CacheBenchReport, cacheFigures, type CacheScenario } from './cache-figures.js';
export { cacheQuestion } from './cache-questions.js';
export { renderCache, renderCacheRuns, renderSemanticCost } from './render-cache.js';
export { runSemanticCost, type SemanticCost } from './semantic-cost.js';
