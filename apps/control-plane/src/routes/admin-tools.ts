import { notFound } from '@svc/core';
import { readJson } from '@svc/inference';
import type { Context, Hono } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '../validate.js';
import { toolToWire } from './admin-tools-wire.js';

/** Tool names as providers accept them (OpenAI allows `[A-Za-z0-9_-]{1,64}`; MCP-style names add `.` and `:`). */
const toolName = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'must be 1 to 128 letters, digits, _ - . or :'));
const putSchema = v.object({
  description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1024, 'at most 1024 characters')))),
  parameters: v.pipe(
    v.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'must be a JSON Schema object'),
    v.check((schema) => schema.type === undefined || schema.type === 'object', 'must describe the arguments object (type "object")'),
  ),
});

/** The organisation in the path, or 404. */
export async function pathOrg(c: Context<ControlEnv>, deps: ControlPlaneDeps) {
  const id = c.req.param('id') ?? '';
  const org = await deps.db.orgs.get(id);
  if (!org) throw notFound(`No organisation '${id}'.`, 'id');
  return org;
}

/** `/v1/admin/orgs/{id}/tools[/{name}]`: the organisation's tool registry (tool governance). */
export function registerAdminTools(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.get('/v1/admin/orgs/:id/tools', async (c) => {
    const org = await pathOrg(c, deps);
    return c.json({ object: 'list', data: (await deps.db.toolGovernance.listTools(org.id)).map(toolToWire) });
  });

  app.get('/v1/admin/orgs/:id/tools/:name', async (c) => {
    const org = await pathOrg(c, deps);
    const tool = await deps.db.toolGovernance.getTool(org.id, c.req.param('name'));
    if (!tool) throw notFound(`No tool '${c.req.param('name')}' is registered for this organisation.`, 'name');
    return c.json(toolToWire(tool));
  });

  app.put('/v1/admin/orgs/:id/tools/:name', async (c) => {
    const name = validate(v.object({ name: toolName }), { name: c.req.param('name') }).name;
    const body = validate(putSchema, await readJson(c, deps.maxBodyBytes));
    const org = await pathOrg(c, deps);
    const { tool, created } = await deps.db.toolGovernance.putTool(org.id, { name, description: body.description ?? null, parameters: body.parameters });
    await deps.governance.invalidate(org.id);
    return c.json(toolToWire(tool), created ? 201 : 200);
  });

  app.delete('/v1/admin/orgs/:id/tools/:name', async (c) => {
    const org = await pathOrg(c, deps);
    const name = c.req.param('name');
    if (!(await deps.db.toolGovernance.deleteTool(org.id, name))) throw notFound(`No tool '${name}' is registered for this organisation.`, 'name');
    await deps.governance.invalidate(org.id);
    return c.json({ object: 'tool', name, deleted: true });
  });
}
