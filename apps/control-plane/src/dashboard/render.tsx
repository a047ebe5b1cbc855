import type { Context } from 'hono';
import type { Child } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { Layout, type LayoutProps } from './layout.js';

/** Renders a full page (with its doctype) inside the layout. */
export async function page(c: Context, props: Omit<LayoutProps, 'children'>, body: Child, status: ContentfulStatusCode = 200): Promise<Response> {
  const html = await (<Layout {...props}>{body}</Layout>).toString();
  return c.html(`<!doctype html>${html}`, status);
}

/**
 * Security headers of every dashboard response: nothing inline may run (scripts and styles are
 * our own files), no framing, no referrer to other sites, no caching of pages with figures.
 */
export const securityHeaders: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};
