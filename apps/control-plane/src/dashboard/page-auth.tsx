import type { PasskeyRecord } from '@svc/auth';
import { when } from './format.js';
import { Status } from './layout.js';

export function LoginPage() {
  return (
    <div class="panel">
      <p class="muted">Sign in with the passkey you registered for this dashboard.</p>
      <form data-login>
        <label for="email">E-mail</label>
        <input id="email" name="email" type="email" autocomplete="username webauthn" required />
        <button type="submit" data-testid="sign-in">
          Sign in with a passkey
        </button>
      </form>
      <Status />
    </div>
  );
}

export function EnrollPage() {
  return (
    <div class="panel">
      <p>This one-time link lets you register a passkey for the dashboard. It works once and expires soon.</p>
      <button type="button" data-enroll data-testid="enroll">
        Continue
      </button>
      <Status />
    </div>
  );
}

export function PasskeysPage(props: { passkeys: PasskeyRecord[]; csrf: string; enrollment: boolean }) {
  return (
    <>
      {props.enrollment ? (
        <div class="next">
          <strong>Register a passkey to finish setting up your account.</strong> Then sign out and sign in with it: this enrollment session can do nothing else.
        </div>
      ) : null}
      <table data-testid="passkeys">
        <thead>
          <tr>
            <th>Name</th>
            <th>Transports</th>
            <th>Created</th>
            <th>Last used</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {props.passkeys.length === 0 ? (
            <tr>
              <td colspan={5} class="muted">
                No passkey yet.
              </td>
            </tr>
          ) : null}
          {props.passkeys.map((p) => (
            <tr>
              <td>{p.name}</td>
              <td>{p.transports.join(', ') || '–'}</td>
              <td>{when(p.createdAt)}</td>
              <td>{when(p.lastUsedAt)}</td>
              <td>
                {props.enrollment ? null : (
                  <form method="post" action={`/dashboard/passkeys/${p.id}/delete`} class="inline">
                    <input type="hidden" name="_csrf" value={props.csrf} />
                    <button type="submit" class="danger">
                      Remove
                    </button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Add a passkey</h2>
      <form data-register class="panel">
        <label for="name">Name</label>
        <input id="name" name="name" type="text" maxlength={64} placeholder="e.g. Work laptop" />
        <button type="submit" data-testid="register-passkey">
          Register a passkey
        </button>
      </form>
      <Status />
    </>
  );
}
