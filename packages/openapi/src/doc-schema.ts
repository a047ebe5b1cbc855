/**
 * The documentation view of a valibot schema: a tree that `@valibot/to-json-schema` converts
 * without errors, built from the schema that validates requests. What JSON Schema cannot say is
 * handled here, explicitly, instead of crashing or silently narrowing the document:
 *
 * - `lazy` schemas that pick a branch from the input (`Array.isArray(input) ? ... : ...`) are
 *   probed with one value of each JSON kind; the branches they return become an `anyOf`. Branches
 *   that reject everything (`custom(() => false)`) are left out. A lazy that decides on something
 *   other than the JSON kind (an object's `type` field) only shows the branches the probes reach:
 *   write such a choice as a `variant`, which converts exactly.
 * - `custom` schemas and checks (`check`, `partialCheck`, `rawCheck`, `custom`) cannot be
 *   expressed; their schema is left open and their valibot message (the "must ..." sentence the
 *   400 shows) is kept as the description: "Checked by the server: must ...".
 * - A pipe that starts with a `custom` guard and continues with a schema (`block()`: "not an
 *   array", then an object) is documented by that schema.
 * - Conversion stops at the first type-changing transformation (`transform`, `toNumber`, ...):
 *   what follows constrains the server's output, not what the client sends. String
 *   normalisations (`trim`, case changes) keep the type and are noted ("surrounding whitespace
 *   is trimmed") when they change what a limit measures.
 * - `blob` and `file` (multipart parts) become binary strings; any other schema JSON cannot carry
 *   (dates, bigints, functions, maps, ...) becomes an open schema with a note.
 */
import * as v from 'valibot';

type Kind = 'schema' | 'validation' | 'transformation' | 'metadata';

/** What the walker reads of a valibot schema or pipe item; every field is the library's own. */
interface Node {
  readonly kind: Kind;
  readonly type: string;
  readonly message?: unknown;
  readonly pipe?: readonly Node[];
  readonly entries?: Readonly<Record<string, Node>>;
  readonly rest?: Node;
  readonly item?: Node;
  readonly items?: readonly Node[];
  /** A schema on `record`; a property name on `variant`. */
  readonly key?: Node | string;
  readonly value?: Node;
  /** Schemas on `union`/`variant`/`intersect`; literal values on `picklist`/`enum`. */
  readonly options?: readonly unknown[];
  readonly wrapped?: Node;
  readonly getter?: (input: unknown) => Node;
  readonly description?: string;
}

const asNode = (schema: v.GenericSchema): Node => schema as unknown as Node;
const asSchema = (node: Node): v.GenericSchema => node as unknown as v.GenericSchema;

/** Schema types to-json-schema converts as they are (no children to walk). */
const leaves = new Set(['any', 'unknown', 'never', 'boolean', 'null', 'number', 'string', 'literal', 'picklist', 'enum']);
/** Wrappers whose `wrapped` schema is walked; to-json-schema converts them itself. */
const wrappers = new Set(['optional', 'exact_optional', 'undefinedable', 'nullable', 'nullish']);
/** Wrappers to-json-schema does not know; documented as what they wrap. */
const narrowingWrappers = new Set(['non_optional', 'non_nullable', 'non_nullish']);
const objects = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest']);
const tuples = new Set(['tuple', 'loose_tuple', 'strict_tuple', 'tuple_with_rest']);

/** Validation and metadata actions to-json-schema converts (its `convertAction` cases). */
const convertible = new Set([
  'base64', 'bic', 'cuid2', 'decimal', 'digits', 'domain', 'emoji', 'hash', 'hexadecimal', 'hex_color', 'isrc',
  'iso_time_second', 'iso_week', 'ksuid', 'mac', 'mac48', 'mac64', 'nanoid', 'octal', 'slug', 'ulid', 'description',
  'email', 'rfc_email', 'ends_with', 'empty', 'entries', 'examples', 'gt_value', 'includes', 'integer', 'ipv4', 'ipv6',
  'iso_date', 'iso_date_time', 'iso_timestamp', 'iso_time', 'jws_compact', 'length', 'lt_value', 'max_entries',
  'max_length', 'max_value', 'metadata', 'min_entries', 'min_length', 'min_value', 'multiple_of', 'non_empty',
  'not_value', 'not_values', 'regex', 'safe_integer', 'starts_with', 'title', 'url', 'uuid', 'value', 'values',
]);
/** Transformations that keep a string a string; everything else changes the type. */
const stringNormalisations: Readonly<Record<string, string | null>> = {
  trim: 'Surrounding whitespace is trimmed first.',
  trim_start: 'Leading whitespace is trimmed first.',
  trim_end: 'Trailing whitespace is trimmed first.',
  to_lower_case: null,
  to_upper_case: null,
  normalize: null,
  brand: null,
  readonly: null,
};

/** One value of each JSON kind: how an input-dependent `lazy` is made to show its branches. */
const probes: readonly unknown[] = [null, true, 0, '', [], [''], [{}], {}];

const describe = (text: string): Node => asNode(v.pipe(v.unknown(), v.description(text)) as unknown as v.GenericSchema);

function messageOf(node: Node): string | undefined {
  return typeof node.message === 'string' ? node.message : undefined;
}

function serverCheck(node: Node): string {
  const message = messageOf(node);
  return message ? `Checked by the server: ${message}.` : `Checked by the server (valibot "${node.type}").`;
}

/** Nested pipes flattened, as to-json-schema reads them. */
function flatten(pipe: readonly Node[]): Node[] {
  return pipe.flatMap((item) => (item.pipe ? flatten(item.pipe) : [item]));
}

/** Whether a branch of a lazy never accepts its probe because it exists only to fail with a message. */
function alwaysFails(branch: Node, probe: unknown): boolean {
  const root = branch.pipe ? branch.pipe[0]! : branch;
  return (root.type === 'custom' || root.type === 'never') && !v.is(asSchema(branch), probe);
}

/** Builds documentation views; one instance per document so shared sub-schemas are walked once. */
export class DocSchemaBuilder {
  readonly #views = new Map<Node, Node>();
  /** Schemas whose view is being built: a lazy meeting one of them is a recursion. */
  readonly #building = new Set<Node>();

  /** The documentation view of `schema` (see the module comment for what changes). */
  view(schema: v.GenericSchema): v.GenericSchema {
    return asSchema(this.#node(asNode(schema)));
  }

  #node(node: Node): Node {
    const known = this.#views.get(node);
    if (known) return known;
    if (node.type === 'lazy') return this.#lazy(node);
    this.#building.add(node);
    const view = node.pipe ? this.#pipe(node) : this.#plain(node);
    this.#building.delete(node);
    this.#views.set(node, view);
    return view;
  }

  #plain(node: Node): Node {
    const walk = (child: Node) => this.#node(child);
    if (leaves.has(node.type)) return node;
    if (objects.has(node.type)) {
      const entries = Object.fromEntries(Object.entries(node.entries ?? {}).map(([name, entry]) => [name, walk(entry)]));
      return { ...node, entries, ...(node.rest ? { rest: walk(node.rest) } : {}) };
    }
    if (node.type === 'array') return { ...node, item: walk(node.item!) };
    if (tuples.has(node.type)) return { ...node, items: node.items!.map(walk), ...(node.rest ? { rest: walk(node.rest) } : {}) };
    if (node.type === 'record') return { ...node, key: walk(node.key as Node), value: walk(node.value!) };
    if (node.type === 'union' || node.type === 'variant' || node.type === 'intersect') {
      return { ...node, options: (node.options as Node[]).map(walk) };
    }
    if (wrappers.has(node.type)) return { ...node, wrapped: walk(node.wrapped!) };
    if (narrowingWrappers.has(node.type)) return walk(node.wrapped!);
    if (node.type === 'custom') return describe(serverCheck(node));
    if (node.type === 'blob' || node.type === 'file') {
      return asNode(v.pipe(v.string(), v.metadata({ contentMediaType: 'application/octet-stream' })) as unknown as v.GenericSchema);
    }
    return describe(`Not expressible in JSON Schema (valibot "${node.type}"); checked by the server.`);
  }

  /** The first schema with the actions JSON Schema can carry; checks become description text. */
  #pipe(node: Node): Node {
    const items = flatten(node.pipe!);
    let root = items[0]!;
    const kept: Node[] = [];
    const notes: string[] = [];
    // Past a type change only descriptions are read: they describe the parameter as a whole.
    let stopped = false;
    for (let i = 1; i < items.length; i++) {
      const item = items[i]!;
      if (item.type === 'description' && item.description) {
        notes.unshift(item.description);
        continue;
      }
      if (stopped) continue;
      if (item.kind === 'schema') {
        // A guard (`custom`) in front of the real shape: document the shape.
        if (root.type === 'custom' && kept.length === 0) root = item;
        else stopped = true;
        continue;
      }
      if (item.kind === 'transformation') {
        if (item.type in stringNormalisations) {
          const note = stringNormalisations[item.type];
          if (note) notes.push(note);
        } else {
          stopped = true;
        }
        continue;
      }
      if (convertible.has(item.type)) kept.push(item);
      else notes.push(serverCheck(item));
    }
    // A guard with nothing after it: open schema, its message as the description.
    if (root.type === 'custom') notes.unshift(serverCheck(root));
    const base = root.type === 'custom' ? asNode(v.unknown()) : this.#node(root);
    if (kept.length === 0 && notes.length === 0) return base;
    if (notes.length > 0) kept.push(asNode(v.description(notes.join(' ')) as unknown as v.GenericSchema));
    return { ...base, pipe: [base, ...kept] };
  }

  /** An input-dependent lazy: the branches its getter returns for one value of each JSON kind. */
  #lazy(node: Node): Node {
    // A lazy that meets itself while its branches are walked: answer with a lazy that resolves
    // to the finished view, which to-json-schema turns into a definition and a $ref.
    const placeholder: Node = asNode(v.lazy(() => asSchema(this.#views.get(node) ?? describe('Recursive schema.'))));
    this.#views.set(node, placeholder);
    const seen = new Set<Node>();
    const fingerprints = new Set<string>();
    const branches: Node[] = [];
    for (const probe of probes) {
      const branch = node.getter!(probe);
      if (seen.has(branch) || alwaysFails(branch, probe)) continue;
      seen.add(branch);
      if (this.#building.has(branch)) {
        // Recursion: refer to the view being built; to-json-schema makes it a definition.
        branches.push(asNode(v.lazy(() => asSchema(this.#views.get(branch)!))));
        continue;
      }
      const fingerprint = JSON.stringify(branch);
      if (fingerprints.has(fingerprint)) continue;
      fingerprints.add(fingerprint);
      branches.push(this.#node(branch));
    }
    const view =
      branches.length === 0
        ? describe('Checked by the server.')
        : branches.length === 1
          ? branches[0]!
          : asNode(v.union(branches.map(asSchema)));
    this.#views.set(node, view);
    return view;
  }
}
