/** The everyday questions of the cache runs: every request its own, none a near-duplicate the semantic cache would answer. */

const openers = ['How do I', 'What is the best way to', 'Can you explain how to', 'Why is it hard to', 'Give me three tips to', 'What should I know before I', 'Is it safe to', 'How long does it take to'];
const tasks = [
  'renew a passport',
  'bake sourdough bread',
  'learn to swim',
  'repair a bike tyre',
  'set up a home network',
  'plant tomatoes',
  'write a cover letter',
  'train a puppy',
  'paint a bedroom',
  'invest in index funds',
  'prepare for a marathon',
  'clean a cast iron pan',
  'back up a laptop',
  'negotiate a salary',
  'start a vegetable garden',
  'reduce my electricity bill',
];
const settings = ['in winter', 'on a small budget', 'as a beginner', 'with two kids', 'in a rented flat', 'before the weekend', 'without special tools', 'in a new city'];

/** Distinct question templates before {@link cacheQuestion} repeats one with another number. */
export const QUESTION_TEMPLATES = openers.length * tasks.length * settings.length;

/**
 * The `i`-th question of the cache runs: one of {@link QUESTION_TEMPLATES} everyday questions with
 * its request number, so no two are equal. From the 1,025th on, the nearest stored questions differ
 * from it only in that number, which the semantic cache's key-term guard refuses: nothing hits.
 */
export function cacheQuestion(i: number): string {
  const t = i % QUESTION_TEMPLATES;
  const opener = openers[t % openers.length]!;
  const task = tasks[Math.floor(t / openers.length) % tasks.length]!;
  const setting = settings[Math.floor(t / (openers.length * tasks.length))]!;
  return `${opener} ${task} ${setting}? (request ${i})`;
}
