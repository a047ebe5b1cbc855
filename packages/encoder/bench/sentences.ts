const subjects = ['a list', 'a string', 'my password', 'the database', 'a docker image', 'an invoice', 'the API key', 'a flight', 'my account', 'the cache'];
const actions = ['reverse', 'reset', 'back up', 'delete', 'rename', 'share', 'encrypt', 'restore', 'rotate', 'inspect'];
const contexts = ['in Python', 'on Linux', 'without losing data', 'from the command line', 'for a whole team', 'after an outage', 'in under a minute', 'safely'];
const openings = ['How do I', 'What is the best way to', 'Can you explain how to', 'Is it possible to', 'Why does it fail when I try to'];

/**
 * Distinct, deterministic questions of the length users type (about 10 to 20 word pieces):
 * every combination of opening x action x subject x context, in a scrambled order.
 */
export function benchSentences(count: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    const n = (i * 7919) % (openings.length * actions.length * subjects.length * contexts.length);
    const o = openings[n % openings.length]!;
    const a = actions[Math.floor(n / openings.length) % actions.length]!;
    const s = subjects[Math.floor(n / (openings.length * actions.length)) % subjects.length]!;
    const c = contexts[Math.floor(n / (openings.length * actions.length * subjects.length)) % contexts.length]!;
    out.push(`${o} ${a} ${s} ${c}? (case ${i})`);
  }
  return out;
}
