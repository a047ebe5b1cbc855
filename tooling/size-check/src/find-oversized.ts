import ts from 'typescript';

/** The size rule: a function may span at most `maxLines` lines and take at most `maxParams` parameters. */
export interface SizeLimits {
  maxLines: number;
  maxParams: number;
}

export const defaultLimits: SizeLimits = { maxLines: 60, maxParams: 6 };

/** A function over a limit: where it starts (1-based line), a readable name, its span in lines and its parameter count. */
export interface Oversized {
  file: string;
  line: number;
  name: string;
  lines: number;
  params: number;
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction;

function isFunctionWithBody(node: ts.Node): node is FunctionNode {
  const kinds = ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) || ts.isAccessor(node);
  return (kinds || ts.isFunctionExpression(node) || ts.isArrowFunction(node)) && node.body !== undefined;
}

function propertyName(name: ts.PropertyName | ts.BindingName, sf: ts.SourceFile): string {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText(sf);
}

/** The class or object a member belongs to, when it has a name. */
function ownerName(member: ts.Node, sf: ts.SourceFile): string | undefined {
  const owner = member.parent;
  if ((ts.isClassDeclaration(owner) || ts.isClassExpression(owner)) && owner.name) return owner.name.text;
  if (ts.isObjectLiteralExpression(owner)) return bindingName(owner, sf);
  return undefined;
}

/** The name an expression is bound to: `const x = ...`, `x: ...`, `this.x = ...`. */
function bindingName(expression: ts.Node, sf: ts.SourceFile): string | undefined {
  const parent = expression.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    const own = propertyName(parent.name, sf);
    const owner = ts.isVariableDeclaration(parent) ? undefined : ownerName(parent, sf);
    return owner ? `${owner}.${own}` : own;
  }
  if (ts.isBinaryExpression(parent) && parent.right === expression) return parent.left.getText(sf);
  if (ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent) || ts.isSatisfiesExpression(parent)) return bindingName(parent, sf);
  return undefined;
}

/** The nearest enclosing function's name, for callbacks. */
function enclosingName(node: ts.Node, sf: ts.SourceFile): string | undefined {
  for (let at = node.parent; at; at = at.parent) {
    if (isFunctionWithBody(at)) return functionName(at, sf);
  }
  return undefined;
}

function callbackName(node: FunctionNode, sf: ts.SourceFile): string {
  const parent = node.parent;
  const call = ts.isCallExpression(parent) || ts.isNewExpression(parent);
  const callee = call ? `${ts.isNewExpression(parent) ? 'new ' : ''}${parent.expression.getText(sf).replace(/\s+/g, '')}` : undefined;
  const own = callee ? `${callee} callback` : '<anonymous>';
  const outer = enclosingName(node, sf);
  return outer ? `${outer} > ${own}` : own;
}

function functionName(node: FunctionNode, sf: ts.SourceFile): string {
  if (ts.isFunctionDeclaration(node)) return node.name?.text ?? 'default';
  if (ts.isConstructorDeclaration(node)) return `${ownerName(node, sf) ?? '<class>'}.constructor`;
  if (ts.isMethodDeclaration(node) || ts.isAccessor(node)) {
    const owner = ownerName(node, sf);
    const own = propertyName(node.name, sf);
    return owner ? `${owner}.${own}` : own;
  }
  if (ts.isFunctionExpression(node) && node.name) return node.name.text;
  return bindingName(node, sf) ?? callbackName(node, sf);
}

function measure(node: FunctionNode, sf: ts.SourceFile): { line: number; lines: number; params: number } {
  const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
  const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
  const params = node.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this')).length;
  return { line: start + 1, lines: end - start + 1, params };
}

/**
 * The functions of one source file over `limits`: declarations, methods, constructors,
 * accessors, function expressions and arrows (a callback is named after its callee and the
 * function around it). Lines run from the first token to the closing brace, JSDoc excluded; a
 * `this` parameter does not count, a destructured settings object counts once.
 */
export function findOversized(file: string, text: string, limits: SizeLimits = defaultLimits): Oversized[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: Oversized[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionWithBody(node)) {
      const size = measure(node, sf);
      if (size.lines > limits.maxLines || size.params > limits.maxParams) found.push({ file, name: functionName(node, sf), ...size });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}
