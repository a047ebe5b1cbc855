import { notFound } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import { adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import { strictBody } from '../strict-body.js';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '@svc/http-kit';
import { orgIdParam, orgParams, pathOrg } from './admin-params.js';
import { toolToWire } from './admin-tools-wire.js';
import { readJson } from '../read-json.js';

/** Tool names as providers accept them (OpenAI allows `[A-Za-z0-9_-]{1,64}`; MCP-style names add `.` and `:`). */
const toolName = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'must be 1 to 128 letters, digits, _ - . or :'));
const putSchema = strictBody({
  description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1024, 'at most 1024 characters')))),
  parameters: v.pipe(
    v.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'must be a JSON Schema object'),
    v.check((schema) => schema.type === undefined || schema.type === 'object', 'must describe the arguments object (type "object")'),
  ),
});


const toolParams = v.object({ id: orgIdParam, name: toolName });
const toolAnswer = jsonResponse('The registered `tool`.');
export const toolGovernanceTags = ['Admin: tool governance'];

export const listToolsRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/orgs/{id}/tools',
  operationId: 'listTools',
  summary: "The organisation's registered tools",
  tags: toolGovernanceTags,
  auth: adminOnly,
  params: orgParams,
  responses: { 200: jsonResponse('A `list` of `tool` objects.') },
  errors: [404],
});

export const getToolRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/orgs/{id}/tools/{name}',
  operationId: 'getTool',
  summary: 'A registered tool',
  tags: toolGovernanceTags,
  auth: adminOnly,
  params: toolParams,
  responses: { 200: toolAnswer },
  errors: [404],
});

export const putToolRoute = defineRoute({
  method: 'put',
  path: '/v1/admin/orgs/{id}/tools/{name}',
  operationId: 'putTool',
  summary: 'Register or replace a tool',
  tags: toolGovernanceTags,
  auth: adminOnly,
  params: toolParams,
  body: { schema: putSchema, name: 'PutToolRequest' },
  responses: { 200: { ...toolAnswer, description: 'The replaced `tool`.' }, 201: { ...toolAnswer, description: 'The newly registered `tool`.' } },
  errors: [400, 404, 413],
});

export const deleteToolRoute = defineRoute({
  method: 'delete',
  path: '/v1/admin/orgs/{id}/tools/{name}',
  operationId: 'deleteTool',
  summary: 'Unregister a tool',
  tags: toolGovernanceTags,
  auth: adminOnly,
  params: toolParams,
  responses: { 200: jsonResponse('`{object: "tool", name, deleted: true}`.') },
  errors: [404],
});

/** `/v1/admin/orgs/{id}/tools[/{name}]`: the organisation's tool registry (tool governance). */
export function registerAdminTools(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(listToolsRoute, async (c) => {
    const org = await pathOrg(c, deps);
    return c.json({ object: 'list', data: (await deps.db.toolGovernance.listTools(org.id)).map(toolToWire) });
  });

  routes.add(getToolRoute, async (c) => {
    const org = await pathOrg(c, deps);
    const name = c.req.param('name') ?? '';
    const tool = await deps.db.toolGovernance.getTool(org.id, name);
    if (!tool) throw notFound(`No tool '${name}' is registered for this organisation.`, 'name');
    return c.json(toolToWire(tool));
  });

  routes.add(putToolRoute, async (c) => {
    const name = validate(v.object({ name: toolName }), { name: c.req.param('name') }).name;
    const body = validate(putSchema, await readJson(c, deps.maxBodyBytes));
    const org = await pathOrg(c, deps);
    const { tool, created } = await deps.db.toolGovernance.putTool(org.id, { name, description: body.description ?? null, parameters: body.parameters });
    await deps.governance.invalidate(org.id);
    return c.json(toolToWire(tool), created ? 201 : 200);
  });

  routes.add(deleteToolRoute, async (c) => {
    const org = await pathOrg(c, deps);
    const name = c.req.param('name') ?? '';
    if (!(await deps.db.toolGovernance.deleteTool(org.id, name))) throw notFound(`No tool '${name}' is registered for this organisation.`, 'name');
    await deps.governance.invalidate(org.id);
    return c.json({ object: 'tool', name, deleted: true });
  });
}
