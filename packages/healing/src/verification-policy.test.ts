import type { IntelligenceMode, OutputVerification, ResponseFormat } from '@svc/core';
import { describe, expect, test } from 'vitest';
import { planVerification, reaskNeeded } from './verification-policy.js';
import { verifyJsonOutput } from './verify-json-output.js';

const jsonObject: ResponseFormat = { type: 'json_object' };
const jsonSchema: ResponseFormat = { type: 'json_schema', name: 'p', schema: { type: 'object', required: ['a'] } };
const text: ResponseFormat = { type: 'text' };

const plan = (setting: OutputVerification | undefined, responseFormat?: ResponseFormat, mode: IntelligenceMode = 'cache', stream = false) =>
  planVerification({ mode, setting, responseFormat, stream });

describe('planVerification', () => {
  test.each([
    ['auto, json_object', undefined, jsonObject, { verify: true, heal: true, reask: 'none' }],
    ['auto, json_schema', undefined, jsonSchema, { verify: true, heal: true, reask: 'none' }],
    ['none', 'none', jsonSchema, { verify: false, heal: false, reask: 'none' }],
    ['native, json_object', 'native', jsonObject, { verify: true, heal: true, reask: 'same_model' }],
    ['schema, json_schema', 'schema', jsonSchema, { verify: true, heal: true, reask: 'same_model' }],
    ['schema, json_object', 'schema', jsonObject, { verify: true, heal: true, reask: 'none' }],
    ['cross_model', 'cross_model', jsonObject, { verify: true, heal: true, reask: 'other_model' }],
  ] as const)('%s', (_name, setting, format, expected) => {
    expect(plan(setting, format)).toEqual({ ...expected, notApplied: false });
    expect(plan(setting, format, 'full')).toEqual({ ...expected, notApplied: false });
  });

  test('off in proxy mode; an explicit request is reported as not applied', () => {
    expect(plan(undefined, jsonSchema, 'proxy')).toEqual({ verify: false, heal: false, reask: 'none', notApplied: false });
    expect(plan('native', jsonSchema, 'proxy')).toEqual({ verify: false, heal: false, reask: 'none', notApplied: true });
    expect(plan('none', jsonSchema, 'proxy').notApplied).toBe(false);
  });

  test('free text has nothing to verify', () => {
    expect(plan(undefined, text).verify).toBe(false);
    expect(plan(undefined, undefined).verify).toBe(false);
    expect(plan('schema', text)).toMatchObject({ verify: false, notApplied: true });
  });

  test('reliability_level sets the strength when the request names none; an explicit setting wins', () => {
    const withLevel = (reliability: 'standard' | 'high' | 'critical', setting?: OutputVerification, mode: IntelligenceMode = 'cache') =>
      planVerification({ mode, setting, responseFormat: jsonSchema, stream: false, reliability });
    expect(withLevel('standard').reask).toBe('none');
    expect(withLevel('high').reask).toBe('same_model');
    expect(withLevel('critical').reask).toBe('other_model');
    expect(withLevel('critical', 'none').verify).toBe(false);
    expect(withLevel('critical', 'native').reask).toBe('same_model');
    // a level is not a request for verification: nothing to report as not applied in proxy mode
    expect(withLevel('critical', undefined, 'proxy')).toEqual({ verify: false, heal: false, reask: 'none', notApplied: false });
  });

  test('the organisation’s default applies when the request states neither a setting nor a level, and is never reported', () => {
    const withOrg = (orgSetting: OutputVerification, extra: Partial<Parameters<typeof planVerification>[0]> = {}) =>
      planVerification({ mode: 'cache', responseFormat: jsonSchema, stream: false, orgSetting, ...extra });
    expect(withOrg('native').reask).toBe('same_model');
    expect(withOrg('none').verify).toBe(false);
    expect(withOrg('none', { setting: 'native' }).reask).toBe('same_model');
    expect(withOrg('none', { reliability: 'critical' }).reask).toBe('other_model');
    expect(withOrg('native', { reliability: 'standard' }).reask).toBe('same_model');
    expect(withOrg('cross_model', { mode: 'proxy' })).toEqual({ verify: false, heal: false, reask: 'none', notApplied: false });
  });

  test('streams are verified at the end and reported, never rewritten or re-asked', () => {
    expect(plan('cross_model', jsonSchema, 'full', true)).toEqual({ verify: true, heal: false, reask: 'none', notApplied: false });
  });
});

describe('reaskNeeded', () => {
  test('only a still-invalid answer is re-asked, as the plan says', () => {
    const invalid = verifyJsonOutput('{"b": 1}', jsonSchema);
    const healed = verifyJsonOutput('{"a": [1,', jsonObject);
    expect(reaskNeeded(invalid, plan('native', jsonSchema))).toBe('same_model');
    expect(reaskNeeded(invalid, plan('cross_model', jsonSchema))).toBe('other_model');
    expect(reaskNeeded(invalid, plan(undefined, jsonSchema))).toBe('none');
    // valid, if at risk: the caller decides from meaningAtRisk and the confidence
    expect(healed.meaningAtRisk).toBe(true);
    expect(reaskNeeded(healed, plan('native', jsonObject))).toBe('none');
  });
});
