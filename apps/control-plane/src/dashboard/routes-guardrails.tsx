import type { Guardrails } from '@svc/core';
import { isGatewayError, notFound } from '@svc/core';
import { validate } from '@svc/http-kit';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { guardrailsField, toGuardrails } from '../routes/admin-guardrails.js';
import { field, jsonField } from './form-fields.js';
import { type GuardrailTarget, GuardrailsPage, type GuardrailsPageProps } from './page-guardrails.js';
import { page } from './render.js';
import { requireDashboardAdmin, viewScope } from './scope.js';

const formSchema = v.object({ guardrails: guardrailsField });

/**
 * The form's `guardrails` text as stored checks, through the admin API's schema: empty is none;
 * text that is not JSON, or a check the API refuses, is a 400 naming the field (`guardrails.0.stag`).
 */
export function parseGuardrailsText(text: string): Guardrails | null {
  const parsed = jsonField('guardrails', text);
  if (parsed === null) return null;
  return toGuardrails(validate(formSchema, { guardrails: parsed }).guardrails ?? null);
}

interface View {
  org?: string | undefined;
  key?: string | undefined;
  refused?: GuardrailsPageProps['refused'];
}

/** The guardrails page: an organisation's checks and its keys', and the editor of one of them (admins). */
async function guardrailsPage(c: Context<ControlEnv>, deps: ControlPlaneDeps, view: View): Promise<Response> {
  const { user, session } = c.get('dashboard');
  const scope = await viewScope(deps, user, view.org ?? user.orgId);
  const org = scope.org!;
  const keys = await deps.db.keys.list(org.id);
  let target: GuardrailTarget = { kind: 'org', org };
  if (view.key) {
    const key = keys.find((entry) => entry.id === view.key);
    if (!key) throw notFound(`No API key '${view.key}' in this organisation.`, 'key');
    target = { kind: 'key', key };
  }
  const props: GuardrailsPageProps = { org, orgs: scope.orgs, keys, target, csrf: session.csrfToken, canEdit: user.role === 'admin', ...(view.refused ? { refused: view.refused } : {}) };
  return page(c, { title: 'Guardrails', user, csrf: session.csrfToken, active: 'guardrails', full: true }, <GuardrailsPage {...props} />, view.refused ? 400 : 200);
}

/** Saves the posted checks with `save` (the caller checked the admin role), or shows the page again with the refusal and the text sent. */
async function saveForm(c: Context<ControlEnv>, deps: ControlPlaneDeps, view: View, save: (checks: Guardrails | null) => Promise<void>): Promise<Response> {
  const text = await field(c, 'guardrails');
  let checks: Guardrails | null;
  try {
    checks = parseGuardrailsText(text);
  } catch (error) {
    if (!isGatewayError(error) || error.status !== 400) throw error;
    return guardrailsPage(c, deps, { ...view, refused: { message: error.message, text } });
  }
  await save(checks);
  return c.redirect(`/dashboard/guardrails?org=${view.org}${view.key ? `&key=${view.key}` : ''}`, 303);
}

export function registerGuardrailPages(dash: Hono<ControlEnv>, deps: ControlPlaneDeps, signedIn: MiddlewareHandler<ControlEnv>): void {
  dash.get('/guardrails', signedIn, (c) => guardrailsPage(c, deps, { org: c.req.query('org'), key: c.req.query('key') }));

  dash.post('/guardrails/org/:id', signedIn, async (c) => {
    requireDashboardAdmin(c.get('dashboard').user);
    const org = await deps.db.orgs.get(c.req.param('id'));
    if (!org) throw notFound(`No organisation '${c.req.param('id')}'.`, 'id');
    return saveForm(c, deps, { org: org.id }, async (guardrails) => {
      await deps.db.orgs.update(org.id, { guardrails });
      await deps.authenticator.orgChanged(org.id);
    });
  });

  dash.post('/guardrails/keys/:id', signedIn, async (c) => {
    requireDashboardAdmin(c.get('dashboard').user);
    const key = await deps.db.keys.get(c.req.param('id'));
    if (!key) throw notFound(`No API key '${c.req.param('id')}'.`, 'id');
    return saveForm(c, deps, { org: key.orgId, key: key.id }, async (guardrails) => {
      await deps.authenticator.update(key.id, { guardrails });
    });
  });
}
