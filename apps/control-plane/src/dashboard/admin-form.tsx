import type { Child } from 'hono/jsx';

export interface AdminFormProps {
  action: string;
  csrf: string;
  testid: string;
  /** The server's message for a refused save (it names the field); shown above the fields. */
  refused?: string;
  errorTestid: string;
  children?: Child;
}

/** A dashboard form that saves through the admin API's rules: the CSRF token, and a refused save's message above the fields. */
export function AdminForm(props: AdminFormProps) {
  return (
    <form method="post" action={props.action} class="panel" data-testid={props.testid}>
      <input type="hidden" name="_csrf" value={props.csrf} />
      {props.refused === undefined ? null : (
        <p class="status error" data-testid={props.errorTestid}>
          {props.refused}
        </p>
      )}
      {props.children}
    </form>
  );
}
