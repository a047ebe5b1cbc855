import { randomBytes } from 'node:crypto';
import { GatewayError, invalidRequest } from '@svc/core';
import { DbConflictError } from '@svc/db';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { type Attempt, type FailureThrottle, tooManyFailures } from '../failure-throttle.js';
import type { ChallengeRecord, ChallengeStore } from './challenge-store.js';
import type { DashboardStore, DashboardUserRecord, PasskeyRecord } from './dashboard-store.js';
import { passkeyRejected } from './errors.js';
import { webauthn } from './webauthn.js';
import type { RelyingParty } from './relying-party.js';

export interface PasskeyAuthSettings {
  rp: RelyingParty;
  store: DashboardStore;
  challenges: ChallengeStore;
  /** `begin` counts every sign-in start (each stores a challenge); `complete` counts failed assertions. */
  throttles: { begin: FailureThrottle; complete: FailureThrottle };
  /** How long the browser waits for the user, ms (sent to the browser). Default 60 s. */
  timeoutMs?: number;
}

/**
 * The WebAuthn ceremonies of the dashboard, verified by @simplewebauthn/server. Every ceremony
 * requires user verification (a passkey with its PIN or biometric: two factors, AAL2). Challenges
 * are single-use (taken from the kv) and bound to what they were issued for.
 */
export class PasskeyAuth {
  private readonly timeoutMs: number;

  constructor(private readonly settings: PasskeyAuthSettings) {
    this.timeoutMs = settings.timeoutMs ?? 60_000;
  }

  /**
   * Sign-in options for an e-mail. Discoverable-credential style: no credential list and no
   * database read, so the answer has the same shape (and cost) whether or not the account
   * exists. The e-mail is remembered with the challenge and must match the passkey's owner.
   */
  async loginOptions(email: string, source?: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const attempt = { source, subject: email.trim().toLowerCase() };
    this.settings.throttles.begin.check(attempt, 'sign-in starts');
    const wait = await this.settings.throttles.begin.fail(attempt);
    if (wait > 0) throw tooManyFailures('sign-in starts', wait);
    const { generateAuthenticationOptions } = await webauthn();
    const options = await generateAuthenticationOptions({ rpID: this.settings.rp.rpId, allowCredentials: [], userVerification: 'required', timeout: this.timeoutMs });
    await this.settings.challenges.put(options.challenge, { purpose: 'login', email: email.trim().toLowerCase() });
    return options;
  }

  /**
   * Verifies a sign-in assertion: challenge, origin, RP id, signature, user verification, a
   * forward-moving counter and a user not disabled. 401 otherwise; 429 once the source address or
   * the credential has failed too often.
   */
  verifyLogin(response: AuthenticationResponseJSON, source?: string): Promise<{ user: DashboardUserRecord; passkey: PasskeyRecord }> {
    const attempt: Attempt = { source, subject: response.id };
    return this.settings.throttles.complete.guard(attempt, 'passkey sign-ins', () => this.verifyAssertion(response), (error) => error instanceof GatewayError && error.status === 401);
  }

  private async verifyAssertion(response: AuthenticationResponseJSON): Promise<{ user: DashboardUserRecord; passkey: PasskeyRecord }> {
    const { challenge, record } = await this.takeChallenge(response, 'login');
    const found = await this.settings.store.passkeys.findByCredentialId(response.id);
    if (!found || (record.purpose === 'login' && found.user.email !== record.email)) {
      throw passkeyRejected('This passkey is not registered for this account.');
    }
    const { passkey, user } = found;
    if (user.disabledAt !== null) throw passkeyRejected('This account is disabled: ask an administrator.');
    const { verifyAuthenticationResponse, isoBase64URL } = await webauthn();
    let newCounter: number;
    try {
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.settings.rp.origin,
        expectedRPID: this.settings.rp.rpId,
        credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.counter, transports: passkey.transports },
        requireUserVerification: true,
      });
      if (!result.verified) throw new Error('the signature does not verify');
      newCounter = result.authenticationInfo.newCounter;
    } catch (error) {
      throw passkeyRejected(`Passkey sign-in failed: ${(error as Error).message}`);
    }
    // Also refuses a counter that a concurrent sign-in already used (the check above read it earlier).
    if (!(await this.settings.store.passkeys.recordUse(passkey.id, newCounter))) {
      throw passkeyRejected('Passkey sign-in failed: the signature counter did not move forward (a cloned authenticator?).');
    }
    await this.settings.store.dashboardUsers.touchLogin(user.id);
    return { user, passkey: { ...passkey, counter: newCounter } };
  }

  /** Registration options for a signed-in user: a discoverable credential with user verification, excluding the ones it has. */
  async registrationOptions(user: DashboardUserRecord): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.settings.store.passkeys.listByUser(user.id);
    const { generateRegistrationOptions, isoBase64URL } = await webauthn();
    const options = await generateRegistrationOptions({
      rpName: this.settings.rp.rpName,
      rpID: this.settings.rp.rpId,
      userName: user.email,
      userID: isoBase64URL.toBuffer(user.webauthnUserId),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      timeout: this.timeoutMs,
    });
    await this.settings.challenges.put(options.challenge, { purpose: 'register', userId: user.id });
    return options;
  }

  /** Verifies and stores a new passkey of `user`. 401 when it does not verify, 409 when already registered. */
  async verifyRegistration(user: DashboardUserRecord, response: RegistrationResponseJSON, name: string): Promise<PasskeyRecord> {
    const { challenge, record } = await this.takeChallenge(response, 'register');
    if (record.purpose !== 'register' || record.userId !== user.id) throw passkeyRejected('This registration challenge was issued to another session.');
    const { verifyRegistrationResponse, isoBase64URL } = await webauthn();
    let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo'];
    try {
      const result = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.settings.rp.origin,
        expectedRPID: this.settings.rp.rpId,
        requireUserVerification: true,
      });
      if (!result.verified) throw new Error('the attestation does not verify');
      info = result.registrationInfo;
    } catch (error) {
      throw passkeyRejected(`Passkey registration failed: ${(error as Error).message}`);
    }
    try {
      return await this.settings.store.passkeys.create({
        id: `pk_${randomBytes(12).toString('base64url')}`,
        userId: user.id,
        name,
        credentialId: info!.credential.id,
        publicKey: isoBase64URL.fromBuffer(info!.credential.publicKey),
        counter: info!.credential.counter,
        transports: response.response.transports ?? [],
        deviceType: info!.credentialDeviceType,
        backedUp: info!.credentialBackedUp,
      });
    } catch (error) {
      if (error instanceof DbConflictError) {
        throw new GatewayError({ status: 409, type: 'invalid_request_error', code: 'conflict', message: 'This passkey is already registered.', param: 'response.id' });
      }
      throw error;
    }
  }

  /** Reads the challenge out of the client data and takes it from the store (single use). */
  private async takeChallenge(response: { response: { clientDataJSON: string } }, purpose: ChallengeRecord['purpose']): Promise<{ challenge: string; record: ChallengeRecord }> {
    const { decodeClientDataJSON } = await webauthn();
    let challenge: string;
    try {
      challenge = decodeClientDataJSON(response.response.clientDataJSON).challenge;
    } catch {
      throw invalidRequest('response.response.clientDataJSON is not base64url-encoded client data JSON.', 'response.response.clientDataJSON');
    }
    if (typeof challenge !== 'string' || challenge.length === 0 || challenge.length > 200) {
      throw invalidRequest('The client data carries no challenge.', 'response.response.clientDataJSON');
    }
    const record = await this.settings.challenges.take(challenge);
    if (!record || record.purpose !== purpose) throw passkeyRejected('The challenge is unknown, expired or already used: start again.');
    return { challenge, record };
  }
}
