import type { ApiKeyRecord } from '@svc/auth';
import type { Guardrails, Organization } from '@svc/core';
import { guardrailsToWire } from '../routes/admin-guardrails.js';
import { AdminForm } from './admin-form.js';
import { OrgPicker } from './period-toolbar.js';

/** What the edit form edits: the organisation's checks, or one of its keys'. */
export type GuardrailTarget = { kind: 'org'; org: Organization } | { kind: 'key'; key: ApiKeyRecord };

export interface GuardrailsPageProps {
  org: Organization;
  orgs: Organization[];
  keys: ApiKeyRecord[];
  target: GuardrailTarget;
  csrf: string;
  canEdit: boolean;
  /** A refused save: the server's message (naming the field) and the text as it was sent. */
  refused?: { message: string; text: string };
}

const optionNames = ['threshold', 'url', 'model', 'timeout_ms', 'failure_mode'] as const;

/** A check's options as `name=value` (threshold, url, model, timeout, failure mode). */
function options(check: Record<string, unknown>): string {
  const set = optionNames.filter((name) => check[name] !== undefined).map((name) => `${name}=${String(check[name])}`);
  return set.length > 0 ? set.join(' · ') : '–';
}

/** The checks in the order they run. */
function ChecksTable(props: { checks: Guardrails | null | undefined; testid: string }) {
  const wire = guardrailsToWire(props.checks);
  if (wire.length === 0) return <p class="muted" data-testid={props.testid}>No checks.</p>;
  return (
    <table data-testid={props.testid}>
      <thead>
        <tr>
          <th>#</th>
          <th>Type</th>
          <th>Stage</th>
          <th>Action</th>
          <th>Options</th>
        </tr>
      </thead>
      <tbody>
        {wire.map((check, index) => (
          <tr>
            <td class="num">{index + 1}</td>
            <td>{String(check['type'])}</td>
            <td>{String(check['stage'])}</td>
            <td>{String(check['action'])}</td>
            <td>{options(check)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const keyLabel = (key: ApiKeyRecord) => `${key.name ?? 'unnamed'} (${key.keyPrefix}…)`;

/** Each active key's own checks, which run after the organisation's. */
function KeyChecks(props: GuardrailsPageProps) {
  const keys = props.keys.filter((key) => key.status === 'active');
  if (keys.length === 0) return <p class="muted">No active keys.</p>;
  return (
    <>
      {keys.map((key) => (
        <section data-key-id={key.id}>
          <h3>
            {keyLabel(key)} {props.canEdit ? <a href={`/dashboard/guardrails?org=${props.org.id}&key=${key.id}`}>edit</a> : null}
          </h3>
          <ChecksTable checks={key.guardrails} testid={`key-guardrails-${key.id}`} />
        </section>
      ))}
    </>
  );
}

/** The JSON editor of the target's checks; a refused save shows the server's message and keeps the text sent. */
function EditForm(props: GuardrailsPageProps) {
  const { target } = props;
  const action = target.kind === 'org' ? `/dashboard/guardrails/org/${target.org.id}` : `/dashboard/guardrails/keys/${target.key.id}`;
  const current = target.kind === 'org' ? target.org.guardrails : target.key.guardrails;
  const wire = guardrailsToWire(current);
  const text = props.refused?.text ?? (wire.length === 0 ? '' : JSON.stringify(wire, null, 2));
  return (
    <>
      <h2>Edit the checks of {target.kind === 'org' ? `the organisation ${target.org.name}` : `the key ${keyLabel(target.key)}`}</h2>
      <AdminForm action={action} csrf={props.csrf} testid="guardrails-form" refused={props.refused?.message} errorTestid="guardrails-error">
        <label for="guardrails">Checks in the order they run, as JSON (empty: none)</label>
        <textarea id="guardrails" name="guardrails" rows={14} spellcheck={false}>
          {text}
        </textarea>
        <p class="muted">
          Each check: <code>{'{"type", "stage", "action", ...}'}</code>. type <code>pii</code>, <code>secrets</code>, <code>prompt_injection</code> (threshold), <code>webhook</code> (url, timeout_ms,
          failure_mode) or <code>moderation</code> (model, timeout_ms, failure_mode); stage <code>before_call</code> or <code>after_answer</code>; action <code>refuse</code>, <code>redact</code> (pii and
          secrets before the call) or <code>log</code>. At most 20.
        </p>
        <button type="submit" data-testid="save-guardrails">
          Save checks
        </button>
      </AdminForm>
    </>
  );
}

export function GuardrailsPage(props: GuardrailsPageProps) {
  return (
    <>
      <OrgPicker path="/dashboard/guardrails" org={props.org} orgs={props.orgs} />
      <h2>
        Organisation checks {props.canEdit && props.target.kind === 'key' ? <a href={`/dashboard/guardrails?org=${props.org.id}`}>edit</a> : null}
      </h2>
      <ChecksTable checks={props.org.guardrails} testid="org-guardrails" />
      <h2>Key checks (after the organisation's)</h2>
      <KeyChecks {...props} />
      {props.canEdit ? <EditForm {...props} /> : <p class="muted">Guardrails are set by an administrator.</p>}
    </>
  );
}
