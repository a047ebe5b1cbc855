import { defineConfig } from 'drizzle-kit';

// `pnpm db:generate` turns schema changes into a new SQL file under migrations/ (committed).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema/index.ts',
  out: './migrations',
});
