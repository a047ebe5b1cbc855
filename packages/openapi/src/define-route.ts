import { checkDeprecation } from './deprecation.js';
import type { RouteDescriptor } from './route-descriptor.js';

const templateParam = /\{([A-Za-z0-9_]+)\}/g;

/** The parameter names of a path template, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(templateParam)].map((match) => match[1]!);
}

/**
 * Checks a descriptor once, where it is written: a bad path template, a parameter schema or
 * greedy parameter missing from the template, or a deprecation that breaks the versioning
 * policy throws at start, not at request time.
 */
export function defineRoute<const R extends RouteDescriptor>(route: R): R {
  const where = `${route.method.toUpperCase()} ${route.path}`;
  if (!route.path.startsWith('/') || /[{}]/.test(route.path.replace(templateParam, ''))) {
    throw new Error(`${where}: the path must start with / and use {name} parameters.`);
  }
  const names = new Set(pathParamNames(route.path));
  for (const name of [...Object.keys(route.params?.entries ?? {}), ...(route.greedyParams ?? [])]) {
    if (!names.has(name)) throw new Error(`${where}: parameter '${name}' is not in the path.`);
  }
  if (Object.keys(route.responses).length === 0) throw new Error(`${where}: declare at least one response.`);
  if (route.deprecation) checkDeprecation(where, route.deprecation);
  return route;
}
