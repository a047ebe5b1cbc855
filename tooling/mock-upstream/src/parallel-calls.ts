/** Round-robin over the calls' fragment lists: one fragment of each call in turn until all are sent. */
export function interleaveFragments<T>(perCall: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...perCall.map((parts) => parts.length));
  for (let step = 0; step < longest; step++) for (const parts of perCall) if (step < parts.length) out.push(parts[step]!);
  return out;
}
