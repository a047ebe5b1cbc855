/**
 * Freezes `value` and everything it holds, and returns it: for plain data (objects, arrays,
 * strings, numbers) shared read-only, such as a stored answer several requests read. Not for typed
 * arrays with elements (`Object.freeze` throws on them). An object already frozen is taken as
 * frozen all the way down.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
