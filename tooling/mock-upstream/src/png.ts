import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A valid PNG of `side` x `side` pixels in one RGB colour (8-bit truecolour, no filter): small,
 * real, and decodable by any image library.
 */
export function solidPng(rgb: Readonly<Rgb>, side = 8): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  const row = Buffer.alloc(1 + side * 3);
  for (let x = 0; x < side; x++) row.set(rgb, 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: side }, () => row));
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

export type Rgb = [number, number, number];

/** A colour from a text, so two prompts draw two images. */
export function colourOf(text: string): Rgb {
  const value = crc32(text);
  return [(value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

/** The colour as `rrggbb`. */
export function hexOf(rgb: Readonly<Rgb>): string {
  return rgb.map((channel) => channel.toString(16).padStart(2, '0')).join('');
}

/** `rrggbb` to its channels; undefined when not six lowercase hex digits. */
export function parseColour(hex: string): Rgb | undefined {
  if (!/^[0-9a-f]{6}$/.test(hex)) return undefined;
  return [Number.parseInt(hex.slice(0, 2), 16), Number.parseInt(hex.slice(2, 4), 16), Number.parseInt(hex.slice(4, 6), 16)];
}
