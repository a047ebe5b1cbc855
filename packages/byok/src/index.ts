export { ByokService, UnknownByokProviderError, type ByokSettings, type MaskedProviderKey, type ProviderKeyStore, type StoredProviderKey } from './byok-service.js';
export { CredentialCipher, CredentialOpenError, type CredentialOwner, type SealedCredential } from './credential-cipher.js';
export { type EncryptionKey, deriveDevEncryptionKey, encryptionKeyFormat, isEncryptionKey, parseEncryptionKey } from './encryption-key.js';
export { OrgProviderCache, type OrgProviderCacheSettings, type ProviderLookup } from './org-provider-cache.js';
export { byokProviderIds, orgProviderConfig } from './org-provider-config.js';
export { type OrgProviders, withOwnKeys } from './with-own-keys.js';
