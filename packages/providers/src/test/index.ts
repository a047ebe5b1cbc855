export * from './fixture-server.js';
export * from './fixture-files.js';
