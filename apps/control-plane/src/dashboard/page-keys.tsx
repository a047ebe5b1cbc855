import { type ApiKeyRecord, isCurrentMasterKey } from '@svc/auth';
import type { Organization } from '@svc/core';
import { when } from './format.js';

export interface KeysPageProps {
  keys: ApiKeyRecord[];
  /** The organisation in view; undefined = every organisation (admins). */
  org: Organization | undefined;
  orgs: Organization[];
  csrf: string;
  /** A key just created: its secret is shown this once. */
  created?: { id: string; secret: string };
}

/** Every key in view, with a revoke button on the active ones. */
function KeysTable(props: KeysPageProps) {
  const orgName = (id: string) => props.orgs.find((o) => o.id === id)?.name ?? props.org?.name ?? id;
  return (
    <table data-testid="keys">
      <thead>
        <tr>
          <th>Name</th>
          <th>Key</th>
          {props.org ? null : <th>Organisation</th>}
          <th>Status</th>
          <th>Created</th>
          <th>Expires</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {props.keys.map((k) => (
          <tr data-key-id={k.id}>
            <td>{k.name ?? '–'}</td>
            <td>
              <code>{k.kind === 'master' ? 'master key' : `${k.keyPrefix}…`}</code>
            </td>
            {props.org ? null : <td>{orgName(k.orgId)}</td>}
            <td>
              <span class={`pill ${k.status === 'active' ? 'ok' : 'bad'}`}>{k.status}</span>
            </td>
            <td>{when(k.createdAt)}</td>
            <td>{k.expiresAt ? when(k.expiresAt) : 'never'}</td>
            <td>
              {k.status === 'active' && isCurrentMasterKey(k) ? (
                <span class="muted" data-testid={`master-${k.id}`}>
                  master key: rotate SVC_MASTER_KEY
                </span>
              ) : k.status === 'active' ? (
                <form method="post" action={`/dashboard/keys/${k.id}/revoke`} class="inline">
                  <input type="hidden" name="_csrf" value={props.csrf} />
                  <button type="submit" class="danger" data-testid={`revoke-${k.id}`}>
                    Revoke
                  </button>
                </form>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Issues a key in the organisation in view (admins pick one). */
function CreateKeyForm(props: Pick<KeysPageProps, 'org' | 'orgs' | 'csrf'>) {
  return (
    <form method="post" action="/dashboard/keys" class="panel">
      <input type="hidden" name="_csrf" value={props.csrf} />
      {props.orgs.length > 0 ? (
        <>
          <label for="org_id">Organisation</label>
          <select id="org_id" name="org_id">
            {props.orgs.map((o) => (
              <option value={o.id} selected={o.id === props.org?.id}>
                {o.name}
              </option>
            ))}
          </select>
        </>
      ) : (
        <input type="hidden" name="org_id" value={props.org?.id ?? ''} />
      )}
      <label for="key-name">Name</label>
      <input id="key-name" name="name" type="text" maxlength={100} placeholder="e.g. backend production" />
      <label for="expires">Expires in days (empty: never)</label>
      <input id="expires" name="expires_in_days" type="number" min={1} max={3650} />
      <button type="submit" data-testid="create-key">
        Create key
      </button>
    </form>
  );
}

export function KeysPage(props: KeysPageProps) {
  return (
    <>
      {props.created ? (
        <div class="next" data-testid="new-key">
          <strong>Key {props.created.id} created.</strong> Copy it now, it is not shown again:
          <p class="secret" data-testid="new-key-secret">
            {props.created.secret}
          </p>
        </div>
      ) : null}
      <KeysTable {...props} />
      <h2>Create a key</h2>
      <CreateKeyForm org={props.org} orgs={props.orgs} csrf={props.csrf} />
    </>
  );
}
