/**
 * The training-domain check's scan (`nearestSimilarity`) in WebAssembly with 128-bit lanes: a prompt
 * unlike the training data reads every prototype (128 x 384 products), ~12 machine instructions a
 * product in JavaScript and about a quarter of that here. The arithmetic is the JavaScript scan's,
 * bit for bit: the values are the float32 ones widened to float64 (as JavaScript reads them), and
 * lanes i % 4 = 0..3 are summed in turn and added as ((a + b) + c) + d, as `dotAt` does; WebAssembly
 * never fuses a multiply into an add. Without WebAssembly's SIMD (or for dimensions not a multiple
 * of 4) there is no scanner and the JavaScript scan runs.
 */

/** The most similar prototype's dot product with `embedding` (the first at or above `scaled`, as the JavaScript scan stops). */
export type PrototypeScanner = (embedding: ArrayLike<number>, scaled: number) => number;

const leb = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...leb(n >>> 7)]);
const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];
const name = (text: string): number[] => [text.length, ...[...text].map((c) => c.charCodeAt(0))];

// Locals: 0 count, 1 dims, 2 scaled (params); 3 row, 4 i, 5 rowsEnd, 6 bytes (i32); 7, 8 the lanes (v128); 9 dot, 10 best (f64).
const [get, set, tee] = [0x20, 0x21, 0x22];
const v128 = { load: (offset: number) => [0xfd, 0x00, 3, ...leb(offset)], zero: [0xfd, 0x0c, ...new Array<number>(16).fill(0)], lane: (i: number) => [0xfd, 0x21, i] };
const f64x2 = { add: [0xfd, 0xf0, 0x01], mul: [0xfd, 0xf2, 0x01] };
const I32 = { const: 0x41, add: 0x6a, mul: 0x6c, shl: 0x74, ltU: 0x49, geU: 0x4f };
const F64 = { add: 0xa0, gt: 0x64, ge: 0x66, minusInfinity: [0x44, 0, 0, 0, 0, 0, 0, 0xf0, 0xff] };
const [block, loop, ifThen, end, br, brIf] = [[0x02, 0x40], [0x03, 0x40], [0x04, 0x40], 0x0b, 0x0c, 0x0d];

/** Two lanes of products added into local `acc`: the row's and the embedding's f64 pairs at `offset` bytes past `i`. */
const accumulate = (acc: number, offset: number) => [get, acc, get, 3, get, 4, I32.add, ...v128.load(offset), get, 4, ...v128.load(offset), ...f64x2.mul, ...f64x2.add, set, acc];

/** `best(count, dims, scaled)`: memory holds the embedding's `dims` f64 values, then `count` rows of `dims`. */
const body = [
  ...[3, 4, 0x7f, 2, 0x7b, 2, 0x7c],
  ...[get, 1, I32.const, 3, I32.shl, set, 6],
  ...[get, 6, get, 0, get, 6, I32.mul, I32.add, set, 5],
  ...[get, 6, set, 3, ...F64.minusInfinity, set, 10],
  ...block,
  ...loop,
  ...[get, 3, get, 5, I32.geU, brIf, 1],
  ...[...v128.zero, set, 7, ...v128.zero, set, 8, I32.const, 0, set, 4],
  ...loop,
  ...accumulate(7, 0),
  ...accumulate(8, 16),
  ...[get, 4, I32.const, 32, I32.add, tee, 4, get, 6, I32.ltU, brIf, 0, end],
  ...[get, 7, ...v128.lane(0), get, 7, ...v128.lane(1), F64.add, get, 8, ...v128.lane(0), F64.add, get, 8, ...v128.lane(1), F64.add],
  ...[tee, 9, get, 10, F64.gt, ...ifThen, get, 9, set, 10, get, 10, get, 2, F64.ge, brIf, 2, end],
  ...[get, 3, get, 6, I32.add, set, 3, br, 0, end, end],
  ...[get, 10, end],
];

const moduleBytes = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [1, 0x60, 3, 0x7f, 0x7f, 0x7c, 1, 0x7c]),
  ...section(2, [1, ...name('m'), ...name('mem'), 0x02, 0x00, 1]),
  ...section(3, [1, 0]),
  ...section(7, [1, ...name('best'), 0x00, 0]),
  ...section(10, [1, ...leb(body.length), ...body]),
]);

/** The little of the WebAssembly API used here (the package is typed without DOM or Node globals). */
interface Wasm {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
}
const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly;
let compiled: object | null | undefined;

/** The module, compiled once; null where WebAssembly or its SIMD is missing. */
function scanModule(): object | null {
  if (compiled === undefined) compiled = wasm?.validate(moduleBytes) ? new wasm.Module(moduleBytes) : null;
  return compiled;
}

/** A scanner over these prototypes (`count` rows of `dims`, copied once as f64), or undefined when it cannot run here. */
export function createPrototypeScanner(prototypes: Float32Array, count: number, dims: number): PrototypeScanner | undefined {
  const module = dims > 0 && dims % 4 === 0 && prototypes.length >= count * dims ? scanModule() : null;
  if (!module || !wasm) return undefined;
  const memory = new wasm.Memory({ initial: Math.ceil(((count + 1) * dims * 8) / 65_536) });
  const best = new wasm.Instance(module, { m: { mem: memory } }).exports['best'] as (count: number, dims: number, scaled: number) => number;
  const values = new Float64Array(memory.buffer, 0, (count + 1) * dims);
  values.set(prototypes.subarray(0, count * dims), dims);
  const embeddingSlot = values.subarray(0, dims);
  return (embedding, scaled) => {
    for (let i = 0; i < dims; i++) embeddingSlot[i] = embedding[i]!;
    return best(count, dims, scaled);
  };
}
