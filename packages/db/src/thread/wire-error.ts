import { DbUnavailableError } from '../availability.js';
import { StoreError, type StoreErrorReason } from '../embedded/store-error.js';
import { DbConflictError } from '../errors.js';
import type { WireError } from './messages.js';

function field(value: unknown, name: string): string | undefined {
  const found = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
  return typeof found === 'string' ? found : undefined;
}

/** `error` as it crosses to the main thread (the driver's SQLSTATE under drizzle's wrapper included). */
export function toWireError(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = field(error, 'code') ?? field(error.cause, 'code');
  const constraint = error instanceof DbConflictError ? error.constraint : field(error.cause, 'constraint');
  const reason = error instanceof StoreError ? error.reason : undefined;
  return { name: error.name, message: error.message, ...(code ? { code } : {}), ...(constraint ? { constraint } : {}), ...(reason ? { reason } : {}) };
}

/** The error the caller would have seen had the store run on its thread. */
export function fromWireError(wire: WireError): Error {
  if (wire.name === 'DbConflictError') return new DbConflictError(wire.message, wire.constraint ? { constraint: wire.constraint } : {});
  if (wire.name === 'DbUnavailableError') return new DbUnavailableError(wire.message);
  if (wire.name === 'StoreError') return new StoreError(wire.reason as StoreErrorReason, wire.message);
  const error = new Error(wire.message);
  error.name = wire.name;
  if (wire.code) Object.assign(error, { code: wire.code });
  return error;
}
