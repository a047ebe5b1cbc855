export { type Oversized, type SizeLimits, defaultLimits, findOversized } from './find-oversized.js';
export { isTestFile, sourceFiles } from './source-files.js';
export { type SizeCheckResult, type SizeCheckSettings, formatOversized, runSizeCheck, sizeReport } from './size-check.js';
