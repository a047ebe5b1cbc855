import { type Organization, invalidRequest, isGatewayError, notFound } from '@svc/core';
import type { MaskedMcpServer } from '@svc/mcp';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { saveMcpServer } from '../routes/admin-mcp-servers.js';
import { formValues, parseServerForm } from './mcp-server-form.js';
import { McpServersPage, type McpServersPageProps } from './page-mcp-servers.js';
import { page } from './render.js';
import { requireDashboardAdmin, viewScope } from './scope.js';

interface View {
  org?: string | undefined;
  server?: string | undefined;
  refused?: McpServersPageProps['refused'];
}

/** The MCP servers page: an organisation's registrations, and (admins) the form registering or editing one. */
async function serversPage(c: Context<ControlEnv>, deps: ControlPlaneDeps, view: View): Promise<Response> {
  const { user, session } = c.get('dashboard');
  const scope = await viewScope(deps, user, view.org ?? user.orgId);
  const org = scope.org!;
  const servers = await deps.mcp.list(org.id);
  const editing = view.server === undefined ? undefined : servers.find((server) => server.name === view.server);
  if (view.server !== undefined && !editing) throw notFound(`This organisation has no MCP server '${view.server}'.`, 'server');
  const props: McpServersPageProps = {
    org,
    orgs: scope.orgs,
    servers,
    csrf: session.csrfToken,
    canEdit: user.role === 'admin',
    ...(editing ? { editing } : {}),
    ...(view.refused ? { refused: view.refused } : {}),
  };
  return page(c, { title: 'MCP servers', user, csrf: session.csrfToken, active: 'mcp', full: true }, <McpServersPage {...props} />, view.refused ? 400 : 200);
}

/** The organisation in the path, for an admin (403 for members). */
async function adminOrg(c: Context<ControlEnv>, deps: ControlPlaneDeps): Promise<Organization> {
  requireDashboardAdmin(c.get('dashboard').user);
  const org = await deps.db.orgs.get(c.req.param('org') ?? '');
  if (!org) throw notFound(`No organisation '${c.req.param('org')}'.`, 'org');
  return org;
}

/** Saves the posted form through the admin API's rules, or shows the page again with the refusal and the form as sent. */
async function saveForm(c: Context<ControlEnv>, deps: ControlPlaneDeps, org: Organization, current: MaskedMcpServer | undefined): Promise<Response> {
  const form = formValues(await c.req.parseBody());
  try {
    const { name, body } = parseServerForm(form, current);
    if (!current && (await deps.mcp.get(org.id, name))) throw invalidRequest(`name: '${name}' is already registered; edit it instead.`, 'name');
    await saveMcpServer(deps, org.id, name, body);
  } catch (error) {
    if (!isGatewayError(error) || error.status !== 400) throw error;
    const { value: _value, clear: _clear, ...sent } = form;
    return serversPage(c, deps, { org: org.id, server: current?.name, refused: { message: error.message, form: sent } });
  }
  return c.redirect(`/dashboard/mcp-servers?org=${org.id}`, 303);
}

/** The server named in the path, or 404. */
async function pathServer(c: Context<ControlEnv>, deps: ControlPlaneDeps, org: Organization): Promise<MaskedMcpServer> {
  const name = c.req.param('name') ?? '';
  const server = await deps.mcp.get(org.id, name);
  if (!server) throw notFound(`This organisation has no MCP server '${name}'.`, 'name');
  return server;
}

export function registerMcpServerPages(dash: Hono<ControlEnv>, deps: ControlPlaneDeps, signedIn: MiddlewareHandler<ControlEnv>): void {
  dash.get('/mcp-servers', signedIn, (c) => serversPage(c, deps, { org: c.req.query('org'), server: c.req.query('server') }));

  dash.post('/mcp-servers/:org', signedIn, async (c) => saveForm(c, deps, await adminOrg(c, deps), undefined));

  dash.post('/mcp-servers/:org/:name', signedIn, async (c) => {
    const org = await adminOrg(c, deps);
    return saveForm(c, deps, org, await pathServer(c, deps, org));
  });

  dash.post('/mcp-servers/:org/:name/delete', signedIn, async (c) => {
    const org = await adminOrg(c, deps);
    const server = await pathServer(c, deps, org);
    await deps.mcp.delete(org.id, server.name);
    return c.redirect(`/dashboard/mcp-servers?org=${org.id}`, 303);
  });
}
