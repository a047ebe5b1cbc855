import type { Child } from 'hono/jsx';
import type { DashboardUserRecord } from '@svc/auth';

export interface LayoutProps {
  title: string;
  /** The signed-in user (omitted on the sign-in and enrollment pages). */
  user?: DashboardUserRecord;
  /** Sent back by the page's script in `x-csrf-token` (state-changing fetches). */
  csrf?: string;
  /** The nav entry to highlight. */
  active?: 'overview' | 'requests' | 'costs' | 'alerts' | 'keys' | 'org' | 'guardrails' | 'mcp' | 'models' | 'quality' | 'passkeys';
  /** Whether the user may see more than the passkeys page (AAL2). */
  full?: boolean;
  children?: Child;
}

const nav = [
  { id: 'overview', href: '/dashboard', label: 'Overview' },
  { id: 'requests', href: '/dashboard/requests', label: 'Requests' },
  { id: 'costs', href: '/dashboard/costs', label: 'Costs' },
  { id: 'alerts', href: '/dashboard/alerts', label: 'Alerts' },
  { id: 'keys', href: '/dashboard/keys', label: 'API keys' },
  { id: 'org', href: '/dashboard/org', label: 'Limits' },
  { id: 'guardrails', href: '/dashboard/guardrails', label: 'Guardrails' },
  { id: 'mcp', href: '/dashboard/mcp-servers', label: 'MCP servers' },
  { id: 'models', href: '/dashboard/models', label: 'Models' },
  { id: 'quality', href: '/dashboard/quality', label: 'Quality' },
  { id: 'passkeys', href: '/dashboard/passkeys', label: 'Passkeys' },
] as const;

/** The page frame: scripts and styles are files of our own origin (the CSP allows nothing inline). */
export function Layout(props: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {props.csrf ? <meta name="csrf-token" content={props.csrf} /> : null}
        <title>{`${props.title} · svc gateway`}</title>
        <link rel="stylesheet" href="/dashboard/assets/dashboard.css" />
        <script src="/dashboard/assets/webauthn.js" defer />
        <script src="/dashboard/assets/dashboard.js" defer />
      </head>
      <body>
        <header class="top">
          <span class="brand">svc gateway</span>
          {props.user ? (
            <nav>
              {nav
                .filter((item) => props.full || item.id === 'passkeys')
                .map((item) => (
                  <a href={item.href} class={props.active === item.id ? 'active' : undefined}>
                    {item.label}
                  </a>
                ))}
            </nav>
          ) : null}
          {props.user ? (
            <form method="post" action="/dashboard/logout" class="who">
              <span>
                {props.user.email} · {props.user.role}
              </span>
              <input type="hidden" name="_csrf" value={props.csrf ?? ''} />
              <button type="submit" class="link" data-testid="sign-out">
                Sign out
              </button>
            </form>
          ) : null}
        </header>
        <main>
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** A `<p>` the page script writes progress and errors into. */
export function Status() {
  return <p class="status" data-status role="status" />;
}
