export * from './chat.js';
export * from './stream.js';
export * from './request.js';
export * from './caller.js';
export * from './metadata.js';
export * from './errors.js';
export * from './provider-error.js';
export * from './ids.js';
