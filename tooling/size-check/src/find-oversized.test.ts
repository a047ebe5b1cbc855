import { describe, expect, it } from 'vitest';
import { findOversized } from './find-oversized.js';

const body = (lines: number) => Array.from({ length: lines }, (_, i) => `  const a${i} = ${i};`).join('\n');
const limits = { maxLines: 10, maxParams: 3 };

describe('findOversized', () => {
  it('reports a declaration over the line limit with its first line and span, JSDoc excluded', () => {
    const text = `/** doc */\nexport function long(a: number) {\n${body(9)}\n}\nfunction short() {\n${body(8)}\n}\n`;
    expect(findOversized('x.ts', text, limits)).toEqual([{ file: 'x.ts', line: 2, name: 'long', lines: 11, params: 1 }]);
  });

  it('reports a function over the parameter limit; a this parameter does not count, a settings object counts once', () => {
    const text = [
      'function many(a: number, b: number, c: number, d: number) {}',
      'function bound(this: Date, a: number, b: number, c: number) {}',
      'function settings({ a, b, c, d, e }: { a: 1; b: 2; c: 3; d: 4; e: 5 }) {}',
    ].join('\n');
    expect(findOversized('x.ts', text, limits)).toEqual([{ file: 'x.ts', line: 1, name: 'many', lines: 1, params: 4 }]);
  });

  it('names methods, constructors, accessors, bound arrows and callbacks', () => {
    const text = [
      'class Gateway {',
      '  constructor(a: 1, b: 2, c: 3, d: 4) {}',
      '  chat(a: 1, b: 2, c: 3, d: 4) {}',
      '  get size() {',
      body(10),
      '  }',
      '  handler = (a: 1, b: 2, c: 3, d: 4) => a;',
      '}',
      'const outcome = (a: 1, b: 2, c: 3, d: 4) => a;',
      'const api = { send(a: 1, b: 2, c: 3, d: 4) {} };',
      'export function register(routes: { add(f: unknown): void }) {',
      '  routes.add(async (a: 1, b: 2, c: 3, d: 4) => a); new Promise((a: 1, b: 2, c: 3, d: 4) => a);',
      '}',
      'export default function (a: 1, b: 2, c: 3, d: 4) {}',
    ].join('\n');
    expect(findOversized('x.ts', text, limits).map((f) => `${f.line} ${f.name}`)).toEqual([
      '2 Gateway.constructor',
      '3 Gateway.chat',
      '4 Gateway.size',
      '16 Gateway.handler',
      '18 outcome',
      '19 api.send',
      '21 register > routes.add callback',
      '21 register > new Promise callback',
      '23 default',
    ]);
  });

  it('skips overload signatures and interface members (no body) and reads TSX', () => {
    const text = 'interface I { m(a: 1, b: 2, c: 3, d: 4): void }\nfunction f(a: 1, b: 2, c: 3, d: 4): void;\nconst view = (a: 1, b: 2, c: 3, d: 4) => <div>{a}</div>;\n';
    expect(findOversized('x.tsx', text, limits).map((f) => f.name)).toEqual(['view']);
  });

  it('uses 60 lines and 6 parameters by default', () => {
    expect(findOversized('x.ts', `function f() {\n${body(58)}\n}\nfunction g(a: 1, b: 2, c: 3, d: 4, e: 5, f: 6) {}`)).toEqual([]);
    expect(findOversized('x.ts', `function f() {\n${body(59)}\n}`)).toHaveLength(1);
  });
});
