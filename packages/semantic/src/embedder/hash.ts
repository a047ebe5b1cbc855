const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over the UTF-16 code units of `text`, from an offset basis varied by `seed`. */
export function fnv(text: string, seed = 0): number {
  let h = (FNV_OFFSET ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** murmur3's finaliser: spreads FNV's weak low bits over the whole word. */
export function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** One step of FNV-1a, for callers that hash a growing window without re-reading it. */
export const fnvStep = (h: number, code: number): number => Math.imul(h ^ code, FNV_PRIME);

/** The offset basis of {@link fnv} under `seed`. */
export const fnvBasis = (seed: number): number => (FNV_OFFSET ^ seed) >>> 0;
