type WebAuthn = typeof import('@simplewebauthn/server') & typeof import('@simplewebauthn/server/helpers');

let loading: Promise<WebAuthn> | undefined;

/**
 * @simplewebauthn/server and its helpers, imported by the first passkey ceremony rather than at
 * start: they pull in ~170 modules (the ASN.1 and X.509 stacks of attestation formats), about
 * 4 MiB of the main thread's heap that a gateway nobody signs in to never needs
 * (docs/operations.md "Memory budget"). The import takes 0.2 to 3 s of CPU (the latter on a
 * loaded 2-core machine), so the dashboard starts it when a page asks for the WebAuthn browser
 * bundle, before its user can press a passkey button; a ceremony that comes first waits for it.
 */
export function webauthn(): Promise<WebAuthn> {
  loading ??= Promise.all([import('@simplewebauthn/server'), import('@simplewebauthn/server/helpers')]).then(([server, helpers]) => ({ ...server, ...helpers }));
  return loading;
}
