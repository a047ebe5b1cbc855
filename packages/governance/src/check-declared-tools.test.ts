import type { ChatRequest } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { checkDeclaredTools, compileGovernance, noGovernance, type ToolPolicy } from './index.js';

const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const governance = (policy: ToolPolicy) =>
  compileGovernance({ tools: [{ name: 'get_weather', parameters: weather }, { name: 'search', parameters: {} }], policy });
const request = (tools: ChatRequest['tools'], toolChoice?: ChatRequest['toolChoice']) => ({ tools, ...(toolChoice ? { toolChoice } : {}) });

function thrown(run: () => void): Record<string, unknown> | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return { status: (error as { status: number }).status, ...(error as { toBody(): Record<string, unknown> }).toBody() };
  }
}

describe('checkDeclaredTools', () => {
  it('refuses the first unregistered tool with 404 tool_not_registered naming tools.N.name', () => {
    const error = thrown(() =>
      checkDeclaredTools(request([{ name: 'get_weather', parameters: weather }, { name: 'browse' }, { name: 'exec' }]), governance({ enforceRegistry: true })),
    );
    expect(error).toEqual({
      status: 404,
      type: 'governance_error',
      code: 'tool_not_registered',
      param: 'tools.1.name',
      message: expect.stringContaining("'browse'"),
    });
  });

  it('lets registered tools and requests without tools through', () => {
    const g = governance({ enforceRegistry: true });
    expect(thrown(() => checkDeclaredTools(request([{ name: 'search' }, { name: 'get_weather', parameters: { type: 'object' } }]), g))).toBeUndefined();
    expect(thrown(() => checkDeclaredTools(request(undefined), g))).toBeUndefined();
    expect(thrown(() => checkDeclaredTools(request([]), g))).toBeUndefined();
  });

  it('does not enforce the registry unless the policy says so', () => {
    expect(thrown(() => checkDeclaredTools(request([{ name: 'browse' }]), governance({ blockedTools: ['exec'] })))).toBeUndefined();
    expect(thrown(() => checkDeclaredTools(request([{ name: 'browse' }]), noGovernance))).toBeUndefined();
  });

  it('with requireSchemaMatch, refuses a declared schema that differs from the registered one (key order ignored)', () => {
    const g = governance({ enforceRegistry: true, requireSchemaMatch: true });
    const reordered = { required: ['city'], properties: { city: { type: 'string' } }, type: 'object' };
    expect(thrown(() => checkDeclaredTools(request([{ name: 'get_weather', parameters: reordered }]), g))).toBeUndefined();
    // Absent parameters compare as {}.
    expect(thrown(() => checkDeclaredTools(request([{ name: 'search' }]), g))).toBeUndefined();
    const changed = { ...weather, properties: { city: { type: 'string' }, cmd: { type: 'string' } } };
    expect(thrown(() => checkDeclaredTools(request([{ name: 'search' }, { name: 'get_weather', parameters: changed }]), g))).toMatchObject({
      status: 404,
      code: 'tool_not_registered',
      param: 'tools.1.parameters',
    });
  });

  it('allows declaring a blocked tool but refuses tool_choice forcing it (422 before any call)', () => {
    const g = governance({ blockedTools: ['search'] });
    expect(thrown(() => checkDeclaredTools(request([{ name: 'search' }]), g))).toBeUndefined();
    expect(thrown(() => checkDeclaredTools(request([{ name: 'search' }], 'required'), g))).toBeUndefined();
    expect(thrown(() => checkDeclaredTools(request([{ name: 'search' }], { name: 'search' }), g))).toMatchObject({
      status: 422,
      type: 'governance_error',
      code: 'tool_call_blocked',
      param: 'tool_choice',
    });
  });
});
