const cities = ['Lisbon', 'Oslo', 'Porto', 'Leeds', 'Lyon', 'Graz', 'Turin', 'Ghent', 'Krakow', 'Bilbao', 'Tampere', 'Utrecht'];
const streets = ['Baker', 'Mill', 'Station', 'Church', 'Harbour', 'Orchard', 'Bridge', 'Market'];
const things = ['colour', 'food', 'band', 'sport', 'book', 'season', 'drink', 'film'];
const values = ['green', 'ramen', 'Radiohead', 'tennis', 'Dune', 'autumn', 'green tea', 'Alien', 'blue', 'pasta'];

/** End users the memory runs spread over (the `user` field), so recall searches a realistic scope. */
export const MEMORY_USERS = 64;

/**
 * The `i`-th full-mode prompt of the memory runs, for end user `bench-user-<i mod 64>`. Even
 * requests state three facts about the user (home, a favourite, a number; each unique, so the
 * encoder's text LRU cannot answer them) and ask for something; odd requests ask about those facts.
 * Every text carries `i`, so neither the exact nor the semantic cache can answer it.
 */
export function memoryPrompt(i: number): { user: string; content: string } {
  const user = `bench-user-${i % MEMORY_USERS}`;
  const city = cities[i % cities.length]!;
  const street = streets[(i >> 1) % streets.length]!;
  const thing = things[(i >> 2) % things.length]!;
  const value = values[(i >> 3) % values.length]!;
  if (i % 2 === 0) {
    return {
      user,
      content: `I live at ${i} ${street} Road in ${city}. My favourite ${thing} is ${value} and my lucky number is ${i}. Suggest a weekend plan for me.`,
    };
  }
  return { user, content: `Which road do I live on, and what is my favourite ${thing}? (message ${i})` };
}

/** A JSON chat body for {@link memoryPrompt}`(i)`. */
export function memoryBody(model: string, i: number): string {
  const { user, content } = memoryPrompt(i);
  return JSON.stringify({ model, user, messages: [{ role: 'user', content }] });
}
