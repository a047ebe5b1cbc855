type SchemaNode = Record<string, unknown>;

/** Keywords whose value is a map of name -> subschema. */
const schemaMaps = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;
/** Keywords whose value is a subschema (or, for `items` in older drafts, a list) that must hold itself. */
const closedChildren = ['items', 'prefixItems', 'anyOf', 'oneOf', 'additionalProperties', 'then', 'else', 'contains'] as const;
/**
 * Keywords whose subschemas are only part of the constraint: closing an `allOf` member rejects
 * properties a sibling member declares, closing `not`/`if` would flip which instances they match.
 * Their descendants are still closed.
 */
const openChildren = ['allOf', 'not', 'if'] as const;

/**
 * Strict structured outputs (OpenAI's `strict: true`) mean no property beyond those declared.
 * Providers that do not enforce strict mode leave it to us, so every object schema that says
 * nothing about extra properties gets `additionalProperties: false`. Mutates `schema`, which must
 * be the verifier's own copy.
 */
export function closeObjects(schema: unknown): void {
  visit(schema, true);
}

function visit(node: unknown, close: boolean): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item, close);
    return;
  }
  if (!isNode(node)) return;
  if (close && describesObject(node) && !saysAnythingAboutExtraProperties(node)) node['additionalProperties'] = false;
  for (const key of schemaMaps) {
    const map = node[key];
    if (isNode(map)) for (const child of Object.values(map)) visit(child, true);
  }
  for (const key of closedChildren) visit(node[key], true);
  for (const key of openChildren) visit(node[key], false);
}

function describesObject(node: SchemaNode): boolean {
  const type = node['type'];
  if (type === 'object') return true;
  if (Array.isArray(type)) return type.includes('object');
  return type === undefined && isNode(node['properties']);
}

function saysAnythingAboutExtraProperties(node: SchemaNode): boolean {
  return 'additionalProperties' in node || 'unevaluatedProperties' in node || 'patternProperties' in node;
}

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
