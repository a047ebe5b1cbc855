import type { Organization } from '@svc/core';
import { type MaskedMcpServer, mcpTransports } from '@svc/mcp';
import { type McpServerFormValues, storedValues } from './mcp-server-form.js';
import { AdminForm } from './admin-form.js';
import { OrgPicker } from './period-toolbar.js';

export interface McpServersPageProps {
  org: Organization;
  orgs: Organization[];
  servers: MaskedMcpServer[];
  /** The server the form edits; none: the form registers a new one. */
  editing?: MaskedMcpServer;
  csrf: string;
  canEdit: boolean;
  /** A refused save: the server's message (naming the field) and the form as sent (without the credential's value). */
  refused?: { message: string; form: McpServerFormValues };
}

const base = (org: Organization) => `/dashboard/mcp-servers?org=${org.id}`;
const listed = (items: string[] | null, none: string) => (items === null ? none : items.length === 0 ? '–' : items.join(', '));

/** `tool: key, key` per tool rule; '–' when none. */
function toolRules(rules: Record<string, string[]> | null): string {
  const entries = Object.entries(rules ?? {});
  return entries.length === 0 ? '–' : entries.map(([tool, keys]) => `${tool}: ${keys.join(', ')}`).join('; ');
}

function ServerRow(props: { server: MaskedMcpServer; org: Organization; csrf: string; canEdit: boolean }) {
  const { server } = props;
  return (
    <tr data-server={server.name}>
      <td>{server.name}</td>
      <td>{server.url}</td>
      <td>{server.transport}</td>
      <td>{listed(server.tools, 'all')}</td>
      <td>{listed(server.keyIds, 'all')}</td>
      <td>{toolRules(server.toolKeyIds)}</td>
      <td data-testid={`credential-${server.name}`}>{server.credential ? `set (${server.credential.header})` : 'none'}</td>
      {props.canEdit ? (
        <td>
          <a href={`${base(props.org)}&server=${server.name}`}>edit</a>
          <form method="post" action={`/dashboard/mcp-servers/${props.org.id}/${server.name}/delete`} class="inline">
            <input type="hidden" name="_csrf" value={props.csrf} />
            <button type="submit" data-testid={`delete-${server.name}`}>
              Delete
            </button>
          </form>
        </td>
      ) : null}
    </tr>
  );
}

function ServersTable(props: McpServersPageProps) {
  if (props.servers.length === 0) return <p class="muted" data-testid="mcp-servers">No MCP servers registered.</p>;
  return (
    <table data-testid="mcp-servers">
      <thead>
        <tr>
          <th>Name</th>
          <th>URL</th>
          <th>Transport</th>
          <th>Exposed tools</th>
          <th>Keys (key_ids)</th>
          <th>Tool keys (tool_key_ids)</th>
          <th>Credential</th>
          {props.canEdit ? <th /> : null}
        </tr>
      </thead>
      <tbody>
        {props.servers.map((server) => (
          <ServerRow server={server} org={props.org} csrf={props.csrf} canEdit={props.canEdit} />
        ))}
      </tbody>
    </table>
  );
}

/** The credential's fields: a value typed replaces it; left empty, the sealed one stays (a box clears it). */
function CredentialFields(props: { values: McpServerFormValues; editing: MaskedMcpServer | undefined }) {
  const set = props.editing?.credential;
  return (
    <>
      <label for="credential_header">Credential header (sent with every request to the server)</label>
      <input id="credential_header" name="credential_header" value={props.values.header} placeholder="Authorization" />
      <label for="credential_value">{set ? 'New credential value (empty: keep the one set; it is never shown)' : 'Credential value (sealed at rest, never shown)'}</label>
      <input id="credential_value" name="credential_value" type="password" autocomplete="off" value="" />
      {set ? (
        <>
          <label for="clear_credential">Clear the credential</label>
          <input id="clear_credential" name="clear_credential" type="checkbox" value="true" />
        </>
      ) : null}
    </>
  );
}

/** Registers a server, or edits `editing`; a refused save shows the server's message and keeps the form as sent. */
function ServerForm(props: McpServersPageProps) {
  const { editing } = props;
  const values = props.refused?.form ?? (editing ? storedValues(editing) : { name: '', url: '', transport: 'streamable_http', header: '', tools: '', key_ids: '', tool_key_ids: '' });
  const action = editing ? `/dashboard/mcp-servers/${props.org.id}/${editing.name}` : `/dashboard/mcp-servers/${props.org.id}`;
  return (
    <>
      <h2>{editing ? `Edit the server ${editing.name}` : 'Register a server'}</h2>
      <AdminForm action={action} csrf={props.csrf} testid="mcp-server-form" refused={props.refused?.message} errorTestid="mcp-server-error">
        <label for="name">Name (1 to 32 letters, digits, inner hyphens; tools are called {'<name>__<tool>'})</label>
        <input id="name" name="name" value={values.name} readonly={editing !== undefined} required />
        <label for="url">URL (a public http(s) address)</label>
        <input id="url" name="url" value={values.url} placeholder="https://tools.example.com/mcp" required />
        <label for="transport">Transport</label>
        <select id="transport" name="transport">
          {mcpTransports.map((transport) => (
            <option value={transport} selected={values.transport === transport}>
              {transport}
            </option>
          ))}
        </select>
        <CredentialFields values={values} editing={editing} />
        <label for="tools">Exposed tools (comma-separated; empty: all the server lists)</label>
        <input id="tools" name="tools" value={values.tools} />
        <label for="key_ids">Keys that may reach it (key ids, comma-separated; empty: all)</label>
        <input id="key_ids" name="key_ids" value={values.key_ids} />
        <label for="tool_key_ids">Keys that alone may use a tool, as JSON {'{"<tool>": ["<key id>"]}'} (empty: none)</label>
        <textarea id="tool_key_ids" name="tool_key_ids" rows={4} spellcheck={false}>
          {values.tool_key_ids}
        </textarea>
        <button type="submit" data-testid="save-mcp-server">
          {editing ? 'Save server' : 'Register server'}
        </button>
        {editing ? <a href={base(props.org)}>cancel</a> : null}
      </AdminForm>
    </>
  );
}

export function McpServersPage(props: McpServersPageProps) {
  return (
    <>
      <OrgPicker path="/dashboard/mcp-servers" org={props.org} orgs={props.orgs} />
      <h2>Registered MCP servers</h2>
      <p class="muted">The organisation's keys reach these servers' tools at the gateway's /mcp as {'<name>__<tool>'}.</p>
      <ServersTable {...props} />
      {props.canEdit ? <ServerForm {...props} /> : <p class="muted">MCP servers are registered by an administrator.</p>}
    </>
  );
}
