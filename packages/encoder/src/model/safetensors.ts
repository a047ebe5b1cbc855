import { halfBytesToFloat } from './fp16.js';

/** One tensor's entry in a safetensors header. */
export interface SafetensorsEntry {
  dtype: string;
  shape: number[];
  /** Byte range inside the data section, `[begin, end)`. */
  offsets: [number, number];
}

/** A parsed safetensors file: its header and the data section it indexes. */
export interface Safetensors {
  entries: ReadonlyMap<string, SafetensorsEntry>;
  data: Uint8Array;
}

const MAX_HEADER_BYTES = 100 * 1024 * 1024;

function isEntry(value: unknown): value is { dtype: string; shape: number[]; data_offsets: [number, number] } {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const offsets = v.data_offsets;
  return (
    typeof v.dtype === 'string' &&
    Array.isArray(v.shape) &&
    v.shape.every((d) => Number.isInteger(d) && d >= 0) &&
    Array.isArray(offsets) &&
    offsets.length === 2 &&
    offsets.every((o) => Number.isInteger(o) && o >= 0)
  );
}

/**
 * Parses a safetensors file (8-byte little-endian header length, JSON header, data). Throws on
 * a truncated file, a header that is not JSON, or a tensor whose bytes lie outside the data.
 */
export function parseSafetensors(bytes: Uint8Array): Safetensors {
  if (bytes.byteLength < 8) throw new Error(`safetensors file of ${bytes.byteLength} bytes has no header`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerBytes = Number(view.getBigUint64(0, true));
  if (headerBytes > MAX_HEADER_BYTES || 8 + headerBytes > bytes.byteLength) throw new Error(`safetensors header length ${headerBytes} exceeds the file`);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerBytes)));
  } catch {
    throw new Error('safetensors header is not JSON');
  }
  if (typeof header !== 'object' || header === null) throw new Error('safetensors header is not an object');
  const data = bytes.subarray(8 + headerBytes);
  const entries = new Map<string, SafetensorsEntry>();
  for (const [name, value] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    if (!isEntry(value)) throw new Error(`safetensors entry ${name} is malformed`);
    const [begin, end] = value.data_offsets;
    if (begin > end || end > data.byteLength) throw new Error(`safetensors entry ${name} lies outside the data`);
    entries.set(name, { dtype: value.dtype, shape: value.shape, offsets: [begin, end] });
  }
  return { entries, data };
}

/**
 * The named fp16 tensor's bytes (little-endian halves, a view of the file: nothing is copied),
 * after checking its dtype, shape and byte length. Throws a message that names the tensor and what differs.
 */
export function halfBytes(file: Safetensors, name: string, shape: readonly number[]): Uint8Array {
  const entry = file.entries.get(name);
  if (!entry) throw new Error(`tensor ${name} is missing`);
  if (entry.dtype !== 'F16') throw new Error(`tensor ${name} is ${entry.dtype}, expected F16`);
  if (entry.shape.length !== shape.length || entry.shape.some((d, i) => d !== shape[i])) {
    throw new Error(`tensor ${name} has shape [${entry.shape.join(',')}], expected [${shape.join(',')}]`);
  }
  const count = shape.reduce((n, d) => n * d, 1);
  const [begin, end] = entry.offsets;
  if (end - begin !== count * 2) throw new Error(`tensor ${name} holds ${end - begin} bytes, expected ${count * 2}`);
  return file.data.subarray(begin, end);
}

/** The named fp16 tensor widened to fp32 (see {@link halfBytes}). */
export function readHalfTensor(file: Safetensors, name: string, shape: readonly number[]): Float32Array {
  return halfBytesToFloat(halfBytes(file, name, shape));
}
