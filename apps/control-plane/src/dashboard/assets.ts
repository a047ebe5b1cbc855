import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { preloadWebAuthn } from '@svc/auth';
import type { Hono } from 'hono';
import type { ControlEnv } from '../env.js';
import { clientScript } from './client-script.js';
import { styles } from './styles.js';

/** The prebuilt browser bundle of @simplewebauthn/browser (defines `SimpleWebAuthnBrowser`), read once. */
function webauthnBundle(): string {
  const main = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
  // main is <package>/script/index.js; the bundle ships beside it in dist/bundle.
  return readFileSync(join(dirname(main), '..', 'dist', 'bundle', 'index.umd.min.js'), 'utf8');
}

/** Static files of the dashboard (under its mount, /dashboard/assets/...): our script and stylesheet, and the WebAuthn browser library. */
export function registerDashboardAssets(app: Hono<ControlEnv>): void {
  let bundle: string | undefined;
  const headers = (type: string) => ({ 'content-type': type, 'cache-control': 'public, max-age=300' });
  app.get('/assets/webauthn.js', (c) => {
    bundle ??= webauthnBundle();
    // A passkey ceremony follows: the server side of WebAuthn, not loaded at start, loads now.
    preloadWebAuthn().catch(() => {});
    return c.body(bundle, 200, headers('text/javascript; charset=utf-8'));
  });
  app.get('/assets/dashboard.js', (c) => c.body(clientScript, 200, headers('text/javascript; charset=utf-8')));
  app.get('/assets/dashboard.css', (c) => c.body(styles, 200, headers('text/css; charset=utf-8')));
}
