export * from './api-key.js';
export * from './scopes.js';
export * from './store.js';
export { Authenticator, type AuthenticatorSettings, type IssuedKey } from './authenticator.js';
export * from './dashboard/index.js';
