import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMigrationsFolder } from './migrate.js';
import { readJournal } from './migration-journal.js';
import { CONTRACT_MIGRATIONS, RELAXING_MIGRATIONS, classifyStatement, migrationStatements } from './migration-policy.js';

describe('migrations are expand-then-contract', () => {
  it('every contracting statement is in a migration listed as contracting, and every listed one contracts', async () => {
    const folder = defaultMigrationsFolder();
    const unlisted: string[] = [];
    const contracting = new Set<string>();
    const relaxing = new Set<string>();
    for (const { tag } of await readJournal(folder)) {
      for (const statement of migrationStatements(await readFile(join(folder, `${tag}.sql`), 'utf8'))) {
        const kind = classifyStatement(statement);
        if (kind === 'expand') continue;
        if (kind === 'relax' && tag in RELAXING_MIGRATIONS) {
          relaxing.add(tag);
          continue;
        }
        contracting.add(tag);
        if (!(tag in CONTRACT_MIGRATIONS)) unlisted.push(`${tag}: ${statement.slice(0, 120)}`);
      }
    }
    expect(unlisted).toEqual([]);
    expect(Object.keys(CONTRACT_MIGRATIONS).filter((tag) => !contracting.has(tag))).toEqual([]);
    expect(Object.keys(RELAXING_MIGRATIONS).filter((tag) => !relaxing.has(tag))).toEqual([]);
  });

  it.each([
    ['CREATE TABLE "x" ("id" text PRIMARY KEY NOT NULL)', 'expand'],
    ['ALTER TABLE "x" ADD COLUMN "a" text', 'expand'],
    ['ALTER TABLE "x" ADD COLUMN "a" integer DEFAULT 0 NOT NULL', 'expand'],
    ['ALTER TABLE "x" ADD COLUMN "a" integer NOT NULL', 'contract'],
    ['ALTER TABLE "x" DROP COLUMN "a"', 'contract'],
    ['ALTER TABLE "x" RENAME COLUMN "a" TO "b"', 'contract'],
    ['ALTER TABLE "x" ALTER COLUMN "a" SET NOT NULL', 'contract'],
    ['ALTER TABLE "x" ALTER COLUMN "a" DROP NOT NULL;', 'relax'],
    ['ALTER TABLE "x" ALTER COLUMN "a" DROP DEFAULT', 'contract'],
    ['DROP TABLE "x"', 'contract'],
    ['DELETE FROM "x"', 'contract'],
    ['UPDATE "x" SET "a" = 1', 'expand'],
    ['CREATE INDEX "i" ON "x" USING btree ("a")', 'expand'],
  ] as const)('%s is %s', (statement, kind) => {
    expect(classifyStatement(statement)).toBe(kind);
  });
});
