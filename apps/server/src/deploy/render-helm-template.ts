import { createHash } from 'node:crypto';
import { stringify } from 'yaml';

/**
 * Renders the subset of Helm's Go templates the chart in deploy/helm uses, so tests can parse
 * what Kubernetes would receive without a helm binary: `{{- -}}` trimming, `.Values.x.y`,
 * `.Release.Name`, `.Chart.X`, `$var`, `if`/`else`/`end`, `range $k, $v := <map>` (keys sorted,
 * as Go does), and the functions quote, toYaml, nindent, indent, sha256sum, not, default.
 * Anything else throws, so the chart cannot drift past what the tests understand.
 */
export interface HelmContext {
  Values: Record<string, unknown>;
  Release: { Name: string; Namespace: string };
  Chart: Record<string, unknown>;
}

type Node =
  | { kind: 'text'; text: string }
  | { kind: 'action'; expr: string }
  | { kind: 'if'; cond: string; whenTrue: Node[]; otherwise: Node[] }
  | { kind: 'range'; key: string; value: string; expr: string; body: Node[] };

type Token = { kind: 'text'; text: string } | { kind: 'tag'; body: string };

function tokenize(template: string): Token[] {
  const tokens: Token[] = [];
  const tag = /\{\{(-?)\s*(.*?)\s*(-?)\}\}/gs;
  let last = 0;
  let trimNext = false;
  for (const match of template.matchAll(tag)) {
    let text = template.slice(last, match.index);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (match[1] === '-') text = text.replace(/\s+$/, '');
    tokens.push({ kind: 'text', text });
    tokens.push({ kind: 'tag', body: match[2]! });
    trimNext = match[3] === '-';
    last = match.index + match[0].length;
  }
  let tail = template.slice(last);
  if (trimNext) tail = tail.replace(/^\s+/, '');
  tokens.push({ kind: 'text', text: tail });
  return tokens;
}

function parse(tokens: Token[], at: { i: number }, until: readonly string[]): { nodes: Node[]; end: string } {
  const nodes: Node[] = [];
  while (at.i < tokens.length) {
    const token = tokens[at.i++]!;
    if (token.kind === 'text') {
      if (token.text) nodes.push({ kind: 'text', text: token.text });
      continue;
    }
    const body = token.body;
    if (body.startsWith('/*')) continue;
    if (until.includes(body)) return { nodes, end: body };
    if (body.startsWith('if ')) {
      const whenTrue = parse(tokens, at, ['else', 'end']);
      const otherwise = whenTrue.end === 'else' ? parse(tokens, at, ['end']).nodes : [];
      nodes.push({ kind: 'if', cond: body.slice(3), whenTrue: whenTrue.nodes, otherwise });
    } else if (body.startsWith('range ')) {
      const m = /^range \$(\w+), \$(\w+) := (.+)$/.exec(body);
      if (!m) throw new Error(`unsupported range: {{ ${body} }}`);
      nodes.push({ kind: 'range', key: m[1]!, value: m[2]!, expr: m[3]!, body: parse(tokens, at, ['end']).nodes });
    } else if (/^(else|end|with|define|template|block)\b/.test(body)) {
      throw new Error(`unsupported or unbalanced template action: {{ ${body} }}`);
    } else nodes.push({ kind: 'action', expr: body });
  }
  if (until.length > 0) throw new Error(`missing {{ end }}`);
  return { nodes, end: '' };
}

type Scope = { root: HelmContext; vars: Record<string, unknown> };

function lookup(path: string, from: unknown): unknown {
  let value = from;
  for (const part of path.split('.').filter(Boolean)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function term(word: string, scope: Scope): unknown {
  if (/^".*"$/.test(word)) return JSON.parse(word);
  if (/^-?\d+$/.test(word)) return Number(word);
  if (word.startsWith('$.')) return lookup(word.slice(2), scope.root);
  if (word.startsWith('.')) return lookup(word.slice(1), scope.root);
  if (word.startsWith('$')) {
    const [name, ...rest] = word.slice(1).split('.');
    if (!(name! in scope.vars)) throw new Error(`unknown variable $${name}`);
    return lookup(rest.join('.'), scope.vars[name!]);
  }
  throw new Error(`unsupported term: ${word}`);
}

const truthy = (value: unknown): boolean =>
  !(value === undefined || value === null || value === false || value === 0 || value === '' || (Array.isArray(value) && value.length === 0) || (typeof value === 'object' && Object.keys(value as object).length === 0));

function scalar(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') throw new Error('a map or list printed as text: pipe it through toYaml');
  return String(value);
}

const functions: Record<string, (args: unknown[]) => unknown> = {
  quote: ([value]) => JSON.stringify(scalar(value)),
  toYaml: ([value]) => stringify(value).trimEnd(),
  nindent: ([n, text]) => `\n${indentLines(String(text), Number(n))}`,
  indent: ([n, text]) => indentLines(String(text), Number(n)),
  sha256sum: ([text]) => createHash('sha256').update(String(text)).digest('hex'),
  not: ([value]) => !truthy(value),
  default: ([fallback, value]) => (truthy(value) ? value : fallback),
};

function indentLines(text: string, n: number): string {
  return text
    .split('\n')
    .map((line) => ' '.repeat(n) + line)
    .join('\n');
}

function evaluate(expr: string, scope: Scope): unknown {
  let piped: unknown[] | undefined;
  for (const command of expr.split('|').map((part) => part.trim())) {
    const words = command.match(/"[^"]*"|\S+/g) ?? [];
    const [head, ...rest] = words;
    const fn = head === undefined ? undefined : functions[head];
    if (fn) piped = [fn([...rest.map((word) => term(word, scope)), ...(piped ?? [])])];
    else if (words.length === 1 && piped === undefined) piped = [term(head!, scope)];
    else throw new Error(`unsupported expression: {{ ${expr} }}`);
  }
  return piped?.[0];
}

function render(nodes: Node[], scope: Scope): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') out += node.text;
    else if (node.kind === 'action') out += scalar(evaluate(node.expr, scope));
    else if (node.kind === 'if') out += render(truthy(evaluate(node.cond, scope)) ? node.whenTrue : node.otherwise, scope);
    else {
      const map = evaluate(node.expr, scope);
      if (map === undefined || map === null) continue;
      if (typeof map !== 'object' || Array.isArray(map)) throw new Error(`range over a non-map: ${node.expr}`);
      for (const key of Object.keys(map).sort()) {
        out += render(node.body, { root: scope.root, vars: { ...scope.vars, [node.key]: key, [node.value]: (map as Record<string, unknown>)[key] } });
      }
    }
  }
  return out;
}

/** Renders one chart template with `context`. */
export function renderHelmTemplate(template: string, context: HelmContext): string {
  return render(parse(tokenize(template), { i: 0 }, []).nodes, { root: context, vars: {} });
}
