import { customType } from 'drizzle-orm/pg-core';

/** `bytea` as a Uint8Array on both drivers (postgres.js hands back a Buffer, PGlite a Uint8Array). */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => new Uint8Array(value),
});
