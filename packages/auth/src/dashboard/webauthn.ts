type WebAuthn = typeof import('@simplewebauthn/server') & typeof import('@simplewebauthn/server/helpers');

let loading: Promise<WebAuthn> | undefined;

/**
 * @simplewebauthn/server and its helpers, imported by the first passkey ceremony rather than at
 * start: they pull in ~170 modules (the ASN.1 and X.509 stacks of attestation formats), about
 * 4 MiB of the main thread's heap that a gateway nobody signs in to never needs
 * (docs/operations.md "Memory budget"). The first sign-in or registration start pays the import
 * once (tens of milliseconds).
 */
export function webauthn(): Promise<WebAuthn> {
  loading ??= Promise.all([import('@simplewebauthn/server'), import('@simplewebauthn/server/helpers')]).then(([server, helpers]) => ({ ...server, ...helpers }));
  return loading;
}
