export { type CeremonyOverrides, SoftAuthenticator } from './soft-authenticator.js';
