export * from './fixture-server.js';
