export type * from './provider.js';
export { KeyPool } from './shared/key-pool.js';
