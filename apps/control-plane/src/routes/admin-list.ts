import type { Page } from '@svc/db';
import * as v from 'valibot';
import { integerParam } from '../integer-param.js';

/** Rows of an admin list when `limit` is absent, and the most one page holds. */
export const defaultListLimit = 100;
export const maxListLimit = 1000;

/** `limit` and `after` of the admin list endpoints (orgs, keys, users), in creation order. */
export const listPageQuery = {
  limit: v.optional(
    v.pipe(
      integerParam,
      v.minValue(1, `must be 1..${maxListLimit}`),
      v.maxValue(maxListLimit, `must be 1..${maxListLimit}`),
      v.description(`Rows in this page, 1..${maxListLimit}; default ${defaultListLimit}.`),
    ),
  ),
  after: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(64, 'at most 64 characters'), v.description("The previous page's `last_id`: the page after it."))),
};

/** The page request of a validated list query. */
export function pageRequest(query: { limit?: number | undefined; after?: string | undefined }) {
  return { limit: query.limit ?? defaultListLimit, after: query.after };
}

/** `{object: "list", data, has_more, first_id, last_id}`: ask for the next page with `after=<last_id>`. */
export function listAnswer<T extends { id: string }, W>(page: Page<T>, toWire: (row: T) => W) {
  return { object: 'list' as const, data: page.data.map(toWire), has_more: page.hasMore, first_id: page.data[0]?.id ?? null, last_id: page.data.at(-1)?.id ?? null };
}
