export { listen, shutdown, type FetchApp, type Listening } from './serve.js';
export { start, type Role, type Started } from './start.js';
