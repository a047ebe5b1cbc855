export { type Cost, baselinePrices, cacheHitCost, computeCost, sumCosts } from './cost.js';
export { MissingPriceError, audioCost, imageCost, perMinuteCost, speechCost } from './unit-cost.js';
export { type RealtimeCost, realtimeCost, realtimeMinutes, realtimeTokenCost, realtimeTokens } from './realtime-cost.js';
