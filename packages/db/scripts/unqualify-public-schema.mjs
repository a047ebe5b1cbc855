// drizzle-kit writes `REFERENCES "public"."table"`; the migrations must follow search_path
// instead, so that createDb({ schema }) can install the same SQL into an isolated schema.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const folder = new URL('../migrations/', import.meta.url);
for (const file of readdirSync(folder).filter((name) => name.endsWith('.sql'))) {
  const path = new URL(file, folder);
  const before = readFileSync(path, 'utf8');
  const after = before.replaceAll('"public".', '');
  if (after !== before) {
    writeFileSync(path, after);
    console.log(`unqualified "public". in migrations/${file}`);
  }
}
