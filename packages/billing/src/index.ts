export { type Cost, baselinePrices, cacheHitCost, computeCost, sumCosts } from './cost.js';
export { MissingPriceError, audioCost, imageCost, perMinuteCost, speechCost } from './unit-cost.js';
