import type { RowStorage } from './js-rows.js';

/**
 * `scan(query, matrix, rows, dimensions, out)`: for each of `rows` consecutive rows of
 * `dimensions` float32 at byte offset `matrix`, the dot product with the vector at `query`,
 * written as float32 to `out`. Byte offsets into the imported memory; `dimensions` a positive
 * multiple of 8. Two f32x4 accumulators (8 lanes a step), summed across lanes at the row's end.
 * Hand-assembled WebAssembly (opcodes per the core and SIMD specifications), because the only
 * alternative for 128-bit SIMD from Node is a native addon: JavaScript has none.
 */
const scanBody = `
  02 02 7f 02 7b                                    ;; locals: i (5), step end (6); v128 acc0 (7), acc1 (8)
  20 03 41 02 74 21 06                              ;; end = dimensions << 2 (bytes a row)
  02 40                                             ;; block
    20 02 45 0d 00                                  ;;   no rows: leave
    03 40                                           ;;   loop over rows
      fd 0c ${'00 '.repeat(16)} 21 07               ;;     acc0 = 0
      fd 0c ${'00 '.repeat(16)} 21 08               ;;     acc1 = 0
      41 00 21 05                                   ;;     i = 0
      03 40                                         ;;     loop over 8 lanes at a time
        20 07 20 00 20 05 6a fd 00 00 00            ;;       acc0, load query[i]
        20 01 20 05 6a fd 00 00 00                  ;;       load row[i]
        fd e6 01 fd e4 01 21 07                     ;;       acc0 += query[i] * row[i] (f32x4.mul, f32x4.add)
        20 08 20 00 20 05 6a fd 00 00 10            ;;       acc1, load query[i + 4 lanes]
        20 01 20 05 6a fd 00 00 10                  ;;       load row[i + 4 lanes]
        fd e6 01 fd e4 01 21 08                     ;;       acc1 += ...
        20 05 41 20 6a 22 05 20 06 49 0d 00         ;;       i += 32 bytes; continue while i < end
      0b
      20 04                                         ;;     address out
      20 07 20 08 fd e4 01 22 07                    ;;     acc0 += acc1
      fd 1f 00 20 07 fd 1f 01 92                    ;;     lane 0 + lane 1
      20 07 fd 1f 02 92 20 07 fd 1f 03 92           ;;     + lane 2 + lane 3
      38 02 00                                      ;;     f32.store out
      20 04 41 04 6a 21 04                          ;;     out += 4
      20 01 20 06 6a 21 01                          ;;     matrix += row bytes
      20 02 41 01 6b 22 02 0d 00                    ;;     rows -= 1; continue while rows
    0b
  0b
  0b`;

const hexBytes = (text: string): number[] =>
  text
    .split('\n')
    .map((line) => line.split(';;')[0]!)
    .join(' ')
    .trim()
    .split(/\s+/)
    .map((b) => Number.parseInt(b, 16));

function leb128(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    const low = rest & 0x7f;
    rest >>>= 7;
    out.push(rest === 0 ? low : low | 0x80);
  } while (rest !== 0);
  return out;
}

const section = (id: number, content: number[]) => [id, ...leb128(content.length), ...content];
const name = (text: string) => [text.length, ...[...text].map((c) => c.charCodeAt(0))];
const I32 = 0x7f;

function assemble(): Uint8Array {
  const body = hexBytes(scanBody);
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
    ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]), // type: (i32 x5) -> ()
    ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 0x01]), // import env.memory, min 1 page
    ...section(3, [1, 0]), // one function of type 0
    ...section(7, [1, ...name('scan'), 0x00, 0]), // export it as "scan"
    ...section(10, [1, ...leb128(body.length), ...body]),
  ]);
}

type Scan = (query: number, matrix: number, rows: number, dimensions: number, out: number) => void;

/** The slice of the WebAssembly JS API used here (Node 20's type definitions do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: { env: { memory: WasmMemory } }) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: object | null | undefined;

/** The compiled module, or null where this runtime has no WebAssembly SIMD. */
function scanModule(): object | null {
  if (compiled === undefined) {
    const bytes = assemble();
    compiled = wasm?.validate(bytes) ? new wasm.Module(bytes) : null;
  }
  return compiled;
}

const PAGE = 65_536;

/** WebAssembly memory the live {@link SimdRows} hold, bytes (V8's heap and array-buffer figures leave it out). */
let heldBytes = 0;
const released = new FinalizationRegistry<WasmMemory>((memory) => {
  heldBytes -= memory.buffer.byteLength;
});

/** Bytes of WebAssembly memory the in-process vector stores hold now (for memory accounting). */
export function simdMemoryBytes(): number {
  return heldBytes;
}

/**
 * A partition's unit vectors in WebAssembly memory, laid out `[query][rows...][scores]`, so a
 * dense search is one call of the SIMD scan: ~6x the scalar JavaScript loop on the 384
 * dimensions of the sentence encoder (docs/caching.md, "Stores"). The scores region follows the
 * rows and moves when they grow.
 */
export class SimdRows implements RowStorage {
  private memory: WasmMemory;
  private readonly scan: Scan;
  private capacity: number;
  private floats!: Float32Array;

  private constructor(
    api: WasmApi,
    module: object,
    private readonly dimensions: number,
    rows: number,
  ) {
    this.capacity = Math.max(1, rows);
    this.memory = new api.Memory({ initial: Math.ceil(this.bytesFor(this.capacity) / PAGE) });
    this.scan = new api.Instance(module, { env: { memory: this.memory } }).exports.scan as Scan;
    heldBytes += this.memory.buffer.byteLength;
    released.register(this, this.memory);
    this.refresh();
  }

  /** Rows for `dimensions` (a multiple of 8) with room for `rows`, or undefined without WebAssembly SIMD. */
  static create(dimensions: number, rows: number): SimdRows | undefined {
    const module = dimensions > 0 && dimensions % 8 === 0 ? scanModule() : null;
    return wasm && module ? new SimdRows(wasm, module, dimensions, rows) : undefined;
  }

  /** Room for at least `rows` rows; grows the memory (by doubling) when needed. */
  reserve(rows: number): void {
    if (rows <= this.capacity) return;
    let capacity = this.capacity;
    while (capacity < rows) capacity *= 2;
    const pages = Math.ceil(this.bytesFor(capacity) / PAGE) - this.memory.buffer.byteLength / PAGE;
    if (pages > 0) {
      this.memory.grow(pages);
      heldBytes += pages * PAGE;
    }
    this.capacity = capacity;
    this.refresh();
  }

  set(row: number, unit: Float32Array): void {
    this.floats.set(unit, this.dimensions * (1 + row));
  }

  move(from: number, to: number): void {
    const d = this.dimensions;
    this.floats.copyWithin(d * (1 + to), d * (1 + from), d * (2 + from));
  }

  /** Dot products of `query` with rows `0..rows-1` into `out[0..rows-1]`. */
  scores(query: Float32Array, rows: number, out: Float32Array): void {
    const d = this.dimensions;
    this.floats.set(query, 0);
    const scoresAt = d * (1 + this.capacity);
    this.scan(0, d * 4, rows, d, scoresAt * 4);
    out.set(this.floats.subarray(scoresAt, scoresAt + rows));
  }

  /** The rows as one Float32Array (`[capacity, dimensions]`, row-major), valid until the next {@link reserve}. */
  rows(): Float32Array {
    return this.floats.subarray(this.dimensions, this.dimensions * (1 + this.capacity));
  }

  /** Dot products of `query` with the listed rows, each into `out[row]` (other entries untouched). */
  scoresOf(query: Float32Array, rows: readonly number[], out: Float32Array): void {
    const d = this.dimensions;
    this.floats.set(query, 0);
    const scoresAt = d * (1 + this.capacity);
    for (const row of rows) this.scan(0, 4 * d * (1 + row), 1, d, 4 * (scoresAt + row));
    for (const row of rows) out[row] = this.floats[scoresAt + row]!;
  }

  private bytesFor(capacity: number): number {
    return 4 * (this.dimensions * (1 + capacity) + capacity);
  }

  // A grown memory detaches the old views.
  private refresh(): void {
    this.floats = new Float32Array(this.memory.buffer);
  }
}
