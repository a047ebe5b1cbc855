export * from './fixture-server.js';
export * from './fixture-files.js';
export * from './upstream-answer.js';
export * from './upstream-wires.js';
