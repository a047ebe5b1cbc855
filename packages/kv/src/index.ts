export type * from './interface.js';
