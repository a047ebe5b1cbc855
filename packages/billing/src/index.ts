export { type Cost, baselinePrices, cacheHitCost, computeCost, sumCosts } from './cost.js';
