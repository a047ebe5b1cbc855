import { invalidRequest, notFound } from '@svc/core';
import { type RouteRegistry, validate } from '@svc/http-kit';
import { type MaskedMcpServer, McpUrlRefusedError, mcpTransports } from '@svc/mcp';
import { adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import type { Context } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { readJson } from '../read-json.js';
import { strictBody } from '../strict-body.js';
import { orgIdParam, orgParams, pathOrg } from './admin-params.js';

/** A server name prefixes its tools at the gateway (`<server>__<tool>`), so it holds no `_` and fits MCP's tool-name alphabet. */
export const serverName = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,30}[A-Za-z0-9])?$/, 'must be 1 to 32 letters, digits or inner hyphens (it prefixes the tool names: <server>__<tool>)'),
);

/** An HTTP header name (RFC 9110 token) that is not one the transport sets itself. */
const reservedHeaders = new Set(['host', 'content-length', 'content-type', 'accept', 'connection', 'transfer-encoding', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']);
const headerName = v.pipe(
  v.string('must be a string'),
  v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/, 'must be an HTTP header name of at most 64 characters'),
  v.check((name) => !reservedHeaders.has(name.toLowerCase()), 'is set by the MCP transport itself'),
);

const toolName = v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z0-9_.-]{1,128}$/, 'must be an MCP tool name (1 to 128 letters, digits, _ - .)'));

const keyIdList = v.pipe(v.array(v.pipe(v.string('must be a key id'), v.maxLength(128, 'must be a key id')), 'must be an array of key ids or null'), v.maxLength(1000, 'at most 1000 keys'));

/** `{<tool>: [key ids]}`: the keys that alone may use that tool. */
const toolKeyIdsShape = 'must be an object {<tool>: [key ids]} or null';
const toolKeyIds = v.pipe(
  v.custom<Record<string, unknown>>((input) => typeof input === 'object' && input !== null && !Array.isArray(input), toolKeyIdsShape),
  v.record(toolName, keyIdList, toolKeyIdsShape),
  v.check((rules) => Object.keys(rules).length <= 256, 'at most 256 tools'),
);

export const putSchema = strictBody({
  url: v.pipe(v.string('must be a string'), v.trim(), v.maxLength(2048, 'at most 2048 characters')),
  transport: v.optional(v.picklist(mcpTransports, `must be one of ${mcpTransports.join(', ')}`), 'streamable_http'),
  credential: v.optional(
    v.nullable(
      v.strictObject({
        header: headerName,
        value: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(4096, 'at most 4096 characters'), v.regex(/^[\x20-\x7e]+$/, 'must be printable ASCII')),
      }, (issue) => (issue.expected === 'never' ? 'unknown field; a credential takes header, value' : 'must be an object {header, value} or null')),
    ),
    null,
  ),
  tools: v.optional(v.nullable(v.pipe(v.array(toolName, 'must be an array of tool names or null'), v.maxLength(256, 'at most 256 tools'))), null),
  key_ids: v.optional(v.nullable(keyIdList), null),
  tool_key_ids: v.optional(v.nullable(toolKeyIds), null),
});

export type PutBody = v.InferOutput<typeof putSchema>;

/** 400 naming `key_ids.N` for an id that is not a key of the organisation. */
async function checkKeyIds(deps: ControlPlaneDeps, orgId: string, keyIds: readonly string[] | null): Promise<void> {
  for (const [index, id] of (keyIds ?? []).entries()) {
    const key = await deps.db.keys.get(id);
    if (key?.orgId !== orgId) throw invalidRequest(`key_ids.${index}: '${id}' is not a key of this organisation.`, `key_ids.${index}`);
  }
}

/**
 * 400 naming `tool_key_ids.<tool>[.N]` for a rule that could never apply: a tool the registration
 * does not expose, or a key outside the organisation or outside `key_ids` (it cannot reach the server).
 */
async function checkToolKeyIds(deps: ControlPlaneDeps, orgId: string, body: Pick<PutBody, 'tools' | 'key_ids' | 'tool_key_ids'>): Promise<void> {
  for (const [tool, ids] of Object.entries(body.tool_key_ids ?? {})) {
    if (body.tools !== null && !body.tools.includes(tool)) throw invalidRequest(`tool_key_ids.${tool}: '${tool}' is not one of the exposed tools.`, `tool_key_ids.${tool}`);
    for (const [index, id] of ids.entries()) {
      const param = `tool_key_ids.${tool}.${index}`;
      if (body.key_ids !== null && !body.key_ids.includes(id)) throw invalidRequest(`${param}: '${id}' is not in key_ids, so it cannot reach the server.`, param);
      const key = await deps.db.keys.get(id);
      if (key?.orgId !== orgId) throw invalidRequest(`${param}: '${id}' is not a key of this organisation.`, param);
    }
  }
}

/**
 * Registers (or replaces) `name` from a validated body, through the rules the admin API applies
 * (its keys, its tool rules, the URL policy: 400 `mcp_url_refused` naming `url`). The dashboard
 * saves through here too; `credential: 'unchanged'` keeps the sealed one (the dashboard's edit).
 */
export async function saveMcpServer(deps: ControlPlaneDeps, orgId: string, name: string, body: SaveBody): Promise<{ server: MaskedMcpServer; created: boolean }> {
  await checkKeyIds(deps, orgId, body.key_ids);
  await checkToolKeyIds(deps, orgId, body);
  try {
    const { key_ids: keyIds, tool_key_ids: toolKeyIds, ...rest } = body;
    return await deps.mcp.put(orgId, { name, ...rest, keyIds, toolKeyIds });
  } catch (error) {
    if (error instanceof McpUrlRefusedError) throw invalidRequest(`url ${error.message}.`, 'url', error.code);
    throw error;
  }
}

export type SaveBody = Omit<PutBody, 'credential'> & { credential: PutBody['credential'] | 'unchanged' };

/** A registration as the admin API shows it: the credential's header and a hint of its value, never the value. */
function serverToWire(orgId: string, server: MaskedMcpServer) {
  return {
    object: 'mcp_server',
    org_id: orgId,
    name: server.name,
    url: server.url,
    transport: server.transport,
    credential: server.credential ? { header: server.credential.header, value_hint: `...${server.credential.last4}` } : null,
    tools: server.tools,
    key_ids: server.keyIds,
    tool_key_ids: server.toolKeyIds,
    created_at: server.createdAt.toISOString(),
    updated_at: server.updatedAt.toISOString(),
  };
}

/** The server name in the path, or 400 naming `name`. */
function pathName(c: Context<ControlEnv>): string {
  return validate(v.object({ name: serverName }), { name: c.req.param('name') ?? '' }).name;
}

const serverParams = v.object({ id: orgIdParam, name: v.pipe(v.string(), v.description('The server name (1 to 32 letters, digits, inner hyphens).')) });
const serverAnswer = jsonResponse('The `mcp_server`: its URL, transport, exposed tools, allowed keys (per server and per tool) and a hint of its credential (`credential.value_hint`), never the credential.');
const tags = ['Admin: MCP servers'];

export const listMcpServersRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/orgs/{id}/mcp-servers',
  operationId: 'listMcpServers',
  summary: "An organisation's registered MCP servers",
  tags,
  auth: adminOnly,
  params: orgParams,
  responses: { 200: jsonResponse('A `list` of `mcp_server` objects, by name.') },
  errors: [404],
});

export const getMcpServerRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/orgs/{id}/mcp-servers/{name}',
  operationId: 'getMcpServer',
  summary: 'One registered MCP server',
  tags,
  auth: adminOnly,
  params: serverParams,
  responses: { 200: serverAnswer },
  errors: [400, 404],
});

export const putMcpServerRoute = defineRoute({
  method: 'put',
  path: '/v1/admin/orgs/{id}/mcp-servers/{name}',
  operationId: 'putMcpServer',
  summary: 'Register (or replace) a remote MCP server',
  description:
    "The organisation's keys reach its tools at the inference port's `/mcp` as `<name>__<tool>`. `url` must be a public http(s) address unless the operator set SVC_MCP_ALLOW_PRIVATE_URLS (400 `mcp_url_refused`); host names are checked again on every address they resolve to when the gateway connects. `credential` (a header and its value) is sealed at rest (AES-256-GCM) and sent with every request to the server; `tools` lists the tools exposed (null: all); `key_ids` the organisation's keys that may reach the server (null: all); `tool_key_ids` (`{<tool>: [key ids]}`) the keys that alone may use a tool (a tool not named: every key of `key_ids`). To other keys such a tool is not listed, and calling it is `tool_not_allowed`.",
  tags,
  auth: adminOnly,
  params: serverParams,
  body: { schema: putSchema, name: 'PutMcpServerRequest' },
  responses: { 200: serverAnswer, 201: serverAnswer },
  errors: [400, 404, 413],
});

export const deleteMcpServerRoute = defineRoute({
  method: 'delete',
  path: '/v1/admin/orgs/{id}/mcp-servers/{name}',
  operationId: 'deleteMcpServer',
  summary: 'Remove a registered MCP server',
  tags,
  auth: adminOnly,
  params: serverParams,
  responses: { 200: jsonResponse('`{object: "mcp_server", org_id, name, status: "deleted"}`.') },
  errors: [400, 404],
});

/** `/v1/admin/orgs/{id}/mcp-servers[/{name}]`: the organisation's remote MCP servers, credentials sealed at rest. */
export function registerAdminMcpServers(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(listMcpServersRoute, async (c) => {
    const org = await pathOrg(c, deps);
    return c.json({ object: 'list', data: (await deps.mcp.list(org.id)).map((server) => serverToWire(org.id, server)) });
  });

  routes.add(getMcpServerRoute, async (c) => {
    const name = pathName(c);
    const org = await pathOrg(c, deps);
    const server = await deps.mcp.get(org.id, name);
    if (!server) throw notFound(`This organisation has no MCP server '${name}'.`, 'name');
    return c.json(serverToWire(org.id, server));
  });

  routes.add(putMcpServerRoute, async (c) => {
    const name = pathName(c);
    const body = validate(putSchema, await readJson(c, deps.maxBodyBytes));
    const org = await pathOrg(c, deps);
    const { server, created } = await saveMcpServer(deps, org.id, name, body);
    return c.json(serverToWire(org.id, server), created ? 201 : 200);
  });

  routes.add(deleteMcpServerRoute, async (c) => {
    const name = pathName(c);
    const org = await pathOrg(c, deps);
    if (!(await deps.mcp.delete(org.id, name))) throw notFound(`This organisation has no MCP server '${name}'.`, 'name');
    return c.json({ object: 'mcp_server', org_id: org.id, name, status: 'deleted' });
  });
}
