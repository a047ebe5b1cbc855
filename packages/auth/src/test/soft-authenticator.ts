import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** What a ceremony claims, to test refusals: another origin or RP id, a chosen counter, no user verification. */
export interface CeremonyOverrides {
  origin?: string;
  rpId?: string;
  /** The signature counter to report (default: the next one). */
  counter?: number;
  userVerified?: boolean;
}

interface Credential {
  id: Buffer;
  rpId: string;
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const uint32 = (value: number) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return out;
};

/**
 * A software passkey authenticator (ES256, resident keys, user verification, `none` attestation)
 * that answers the options of @simplewebauthn/server the way a browser would, so the ceremonies
 * run end to end in tests without a browser. Built on the WebAuthn Level 3 data layouts.
 */
export class SoftAuthenticator {
  private readonly credentials: Credential[] = [];

  constructor(private readonly origin: string) {}

  /** Answers `navigator.credentials.create()`: a new resident credential for the options' RP and user. */
  register(options: PublicKeyCredentialCreationOptionsJSON, overrides: CeremonyOverrides = {}): RegistrationResponseJSON {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const credential: Credential = { id: randomBytes(16), rpId, userHandle: options.user.id, privateKey, counter: 0 };
    const counter = overrides.counter ?? 0;
    const attestedData = Buffer.concat([Buffer.alloc(16), Buffer.from([0, credential.id.length]), credential.id, Buffer.from(cose)]);
    // UP | UV | AT
    const authData = Buffer.concat([sha256(overrides.rpId ?? rpId), Buffer.from([0x01 | (overrides.userVerified === false ? 0 : 0x04) | 0x40]), uint32(counter), attestedData]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    );
    const clientData = this.clientData('webauthn.create', options.challenge, overrides);
    this.credentials.push(credential);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: b64url(clientData), attestationObject: b64url(attestationObject), transports: ['internal'] },
    };
  }

  /** Answers `navigator.credentials.get()` with the newest resident credential of the RP (or the one named). */
  authenticate(options: PublicKeyCredentialRequestOptionsJSON, overrides: CeremonyOverrides & { credentialId?: string } = {}): AuthenticationResponseJSON {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const credential = [...this.credentials].reverse().find((c) => c.rpId === rpId && (overrides.credentialId === undefined || b64url(c.id) === overrides.credentialId));
    if (!credential) throw new Error(`no credential for ${rpId}`);
    credential.counter = overrides.counter ?? credential.counter + 1;
    const authData = Buffer.concat([sha256(overrides.rpId ?? rpId), Buffer.from([0x01 | (overrides.userVerified === false ? 0 : 0x04)]), uint32(credential.counter)]);
    const clientData = this.clientData('webauthn.get', options.challenge, overrides);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: credential.userHandle },
    };
  }

  private clientData(type: string, challenge: string, overrides: CeremonyOverrides): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: overrides.origin ?? this.origin, crossOrigin: false }));
  }
}
