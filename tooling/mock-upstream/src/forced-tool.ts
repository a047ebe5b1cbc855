import { asArray, asRecord, asString } from './json.js';

/** The tool the model is forced to call, with JSON arguments that satisfy its schema. */
export interface ForcedToolCall {
  name: string;
  /** JSON text of the arguments object. */
  arguments: string;
}

/** Build a value that satisfies a (simple) JSON schema: enums, consts, objects, arrays, scalars. */
export function sampleFromSchema(schema: unknown, depth = 0): unknown {
  const s = asRecord(schema);
  if (!s || depth > 8) return {};
  if ('const' in s) return s['const'];
  const enumValues = asArray(s['enum']);
  if (enumValues && enumValues.length > 0) return enumValues[0];
  const variants = asArray(s['anyOf']) ?? asArray(s['oneOf']);
  if (variants && variants.length > 0) return sampleFromSchema(variants[0], depth + 1);
  const rawType = s['type'];
  const type = Array.isArray(rawType) ? asString(rawType[0]) : asString(rawType);
  switch (type) {
    case 'string':
      return 'mock';
    case 'integer':
    case 'number':
      return typeof s['minimum'] === 'number' ? s['minimum'] : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const min = typeof s['minItems'] === 'number' ? s['minItems'] : 0;
      return Array.from({ length: min }, () => sampleFromSchema(s['items'], depth + 1));
    }
    default: {
      const properties = asRecord(s['properties']) ?? {};
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(properties)) {
        out[key] = sampleFromSchema(child, depth + 1);
      }
      return out;
    }
  }
}

function call(name: string | undefined, schema: unknown): ForcedToolCall | undefined {
  if (name === undefined) return undefined;
  return { name, arguments: JSON.stringify(sampleFromSchema(schema)) };
}

/** OpenAI: `tool_choice: "required"` (first tool) or `{type:"function", function:{name}}`. */
export function openaiForcedTool(body: Record<string, unknown>): ForcedToolCall | undefined {
  const tools = (asArray(body['tools']) ?? []).map((t) => asRecord(asRecord(t)?.['function']));
  if (tools.length === 0) return undefined;
  const choice = body['tool_choice'];
  const named = asString(asRecord(asRecord(choice)?.['function'])?.['name']);
  const fn = named ? tools.find((t) => t?.['name'] === named) : choice === 'required' ? tools[0] : undefined;
  return fn ? call(asString(fn['name']), fn['parameters']) : undefined;
}

/**
 * OpenAI with parallel calls on (`parallelToolCalls` not `off`, `tool_choice: "required"`, and
 * `parallel_tool_calls` not false): one call per tool; otherwise the forced call, if any.
 */
export function openaiToolCalls(body: Record<string, unknown>, parallel: boolean): ForcedToolCall[] {
  if (parallel && body['tool_choice'] === 'required' && body['parallel_tool_calls'] !== false) {
    const tools = (asArray(body['tools']) ?? []).map((t) => asRecord(asRecord(t)?.['function']));
    return tools.flatMap((fn) => {
      const made = fn ? call(asString(fn['name']), fn['parameters']) : undefined;
      return made ? [made] : [];
    });
  }
  const forced = openaiForcedTool(body);
  return forced ? [forced] : [];
}

/** Anthropic: `tool_choice: {type:"any"}` (first tool) or `{type:"tool", name}`. */
export function anthropicForcedTool(body: Record<string, unknown>): ForcedToolCall | undefined {
  const tools = (asArray(body['tools']) ?? []).map(asRecord);
  if (tools.length === 0) return undefined;
  const choice = asRecord(body['tool_choice']);
  const type = asString(choice?.['type']);
  const tool =
    type === 'tool'
      ? tools.find((t) => t?.['name'] === choice?.['name'])
      : type === 'any'
        ? tools[0]
        : undefined;
  return tool ? call(asString(tool['name']), tool['input_schema']) : undefined;
}

/** Gemini: `toolConfig.functionCallingConfig.mode: "ANY"` (first allowed, else first declared). */
export function geminiForcedTool(body: Record<string, unknown>): ForcedToolCall | undefined {
  const declarations = (asArray(body['tools']) ?? []).flatMap(
    (t) => asArray(asRecord(t)?.['functionDeclarations']) ?? [],
  );
  if (declarations.length === 0) return undefined;
  const config = asRecord(asRecord(body['toolConfig'])?.['functionCallingConfig']);
  if (asString(config?.['mode']) !== 'ANY') return undefined;
  const allowed = asString(asArray(config?.['allowedFunctionNames'])?.[0]);
  const fn = (
    allowed ? declarations.find((d) => asRecord(d)?.['name'] === allowed) : declarations[0]
  ) as unknown;
  const decl = asRecord(fn);
  return decl ? call(asString(decl['name']), decl['parameters']) : undefined;
}
