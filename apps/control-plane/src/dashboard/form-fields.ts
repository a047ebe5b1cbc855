import { invalidRequest } from '@svc/core';
import { STORED_JSON_RULES, checkJsonShape } from '@svc/http-kit';

/** A form field as text ('' when absent). */
export async function field(c: { req: { parseBody(): Promise<Record<string, unknown>> } }, name: string): Promise<string> {
  const value = (await c.req.parseBody())[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** An optional non-negative number field: '' = null (unlimited); 400 naming the field otherwise. */
export function optionalNumber(name: string, text: string, integer: boolean): number | null {
  if (text === '') return null;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) throw invalidRequest(`${name} must be a ${integer ? 'whole ' : ''}number >= 0.`, name);
  return value;
}

/** A JSON form field: '' is null; text that is not JSON is a 400 naming the field; the value is held to STORED_JSON_RULES. */
export function jsonField(name: string, text: string): unknown {
  if (text === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalidRequest(`${name}: not valid JSON (${error instanceof Error ? error.message : String(error)}).`, name);
  }
  checkJsonShape(parsed, STORED_JSON_RULES);
  return parsed;
}
