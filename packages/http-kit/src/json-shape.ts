import { invalidRequest } from '@svc/core';

/** What a JSON body may hold beyond being valid JSON. */
export interface JsonShapeRules {
  /** Deepest nesting of arrays and objects accepted. Default 64: JSON schemas and messages stay far below it. */
  maxDepth?: number;
  /**
   * Refuse U+0000 in strings and keys. The control plane stores every string in PostgreSQL,
   * whose text and JSONB types cannot hold it; inference text reaches upstreams that accept it.
   */
  forbidNul?: boolean;
}

export const DEFAULT_MAX_JSON_DEPTH = 64;

/** The rules of a body stored as sent, in PostgreSQL, whose text and JSONB cannot hold U+0000 (the control plane's bodies, batches). */
export const STORED_JSON_RULES: Readonly<JsonShapeRules> = { forbidNul: true };

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkString(text: string, path: string, rules: JsonShapeRules): void {
  if (rules.forbidNul && text.includes('\u0000')) throw invalidRequest(`${path || 'body'}: must not contain the NUL character (U+0000).`, path || null, 'invalid_string');
  if (loneSurrogate.test(text)) throw invalidRequest(`${path || 'body'}: holds a lone UTF-16 surrogate, which is not valid Unicode text.`, path || null, 'invalid_string');
}

/**
 * Checks a parsed JSON value without recursion (a 5,000-deep body must be a 400, not a stack
 * overflow in whatever walks it next): nesting depth, lone surrogates (which PostgreSQL's JSONB
 * and most upstreams refuse) and, by rule, NUL characters. Throws a 400 naming the field.
 */
export function checkJsonShape(value: unknown, rules: JsonShapeRules = {}): void {
  const maxDepth = rules.maxDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: node, path, depth } = stack.pop()!;
    if (typeof node === 'string') {
      checkString(node, path, rules);
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= maxDepth) throw invalidRequest(`${path || 'body'}: nested deeper than ${maxDepth} levels.`, path || null, 'nesting_too_deep');
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) stack.push({ value: node[i], path: path ? `${path}.${i}` : String(i), depth: depth + 1 });
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      const childPath = path ? `${path}.${key}` : key;
      checkString(key, childPath, rules);
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
}
