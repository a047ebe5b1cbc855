// Allocation sites of a V8 sampling heap profile (.heapprofile), KB per request: the top sites by
// self size, and the same bytes charged to the nearest svc frame above them (apps/ or packages/,
// not node_modules; "(node or a dependency)" when none).
//   node heapprofile-sites.mjs <file.heapprofile> <requests> [top=25]
import { readFileSync } from 'node:fs';

const [file, requestsArg, topArg = '25'] = process.argv.slice(2);
const requests = Number(requestsArg);
const top = Number(topArg);
const { head } = JSON.parse(readFileSync(file, 'utf8'));
const name = (f) => `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(apps|packages|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
const isSvc = (f) => /\/(apps|packages)\//.test(f.url) && !f.url.includes('node_modules');
const self = new Map();
const svc = new Map();
let total = 0;
const walk = (node, nearest) => {
  const here = isSvc(node.callFrame) ? name(node.callFrame) : nearest;
  if (node.selfSize) {
    total += node.selfSize;
    const key = name(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + node.selfSize);
    svc.set(here, (svc.get(here) ?? 0) + node.selfSize);
  }
  for (const child of node.children) walk(child, here);
};
walk(head, '(node or a dependency)');
const kb = (bytes) => (bytes / 1024 / requests).toFixed(2);
const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [key, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${kb(bytes).padStart(8)}  ${key}`);
};
console.log(`total ${kb(total)} KB a request`);
print('self, KB a request', self);
print('nearest svc frame, KB a request', svc);
