import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

/** A fresh schema name, unique across parallel test files and reruns. */
export function randomSchemaName(prefix = 'svc_test'): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

/** Drops a schema and everything in it (including drizzle's journal, which lives there too). */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`drop schema if exists ${sql(schema)} cascade`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Undefined when `SELECT 1` succeeds within `timeoutMs`; otherwise why it failed. */
export async function checkPostgres(url: string, timeoutMs = 5000): Promise<string | undefined> {
  const sql = postgres(url, { max: 1, connect_timeout: Math.ceil(timeoutMs / 1000), onnotice: () => {} });
  try {
    await sql`select 1`;
    return undefined;
  } catch (error) {
    const { message, code } = error as { message?: string; code?: string };
    return message || code || String(error);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * A database of its own on the server of `url` (dropped by `drop`), for tests that start whole
 * gateways: their migrations then never meet another branch's in a shared database.
 */
export async function createScratchDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = randomSchemaName('svc_scratch');
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await admin`create database ${admin(name)}`;
  } finally {
    await admin.end({ timeout: 5 });
  }
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return {
    url: scratch.toString(),
    async drop() {
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await sql`drop database if exists ${sql(name)} with (force)`;
      } finally {
        await sql.end({ timeout: 5 });
      }
    },
  };
}
