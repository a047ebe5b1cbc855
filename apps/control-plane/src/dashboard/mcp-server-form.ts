import { validate } from '@svc/http-kit';
import type { MaskedMcpServer } from '@svc/mcp';
import * as v from 'valibot';
import { type SaveBody, putSchema, serverName } from '../routes/admin-mcp-servers.js';
import { jsonField } from './form-fields.js';

/** The registration form's fields as text, as sent (never the credential's value, which is not shown back). */
export interface McpServerFormValues {
  name: string;
  url: string;
  transport: string;
  header: string;
  tools: string;
  key_ids: string;
  tool_key_ids: string;
}

/** The form as sent: every field as trimmed text ('' when absent). */
export function formValues(form: Record<string, unknown>): McpServerFormValues & { value: string; clear: boolean } {
  const text = (name: string) => {
    const value = form[name];
    return typeof value === 'string' ? value.trim() : '';
  };
  return {
    name: text('name'),
    url: text('url'),
    transport: text('transport'),
    header: text('credential_header'),
    value: text('credential_value'),
    clear: text('clear_credential') !== '',
    tools: text('tools'),
    key_ids: text('key_ids'),
    tool_key_ids: text('tool_key_ids'),
  };
}

/** A registration's fields as the edit form shows them. */
export function storedValues(server: MaskedMcpServer): McpServerFormValues {
  return {
    name: server.name,
    url: server.url,
    transport: server.transport,
    header: server.credential?.header ?? '',
    tools: (server.tools ?? []).join(', '),
    key_ids: (server.keyIds ?? []).join(', '),
    tool_key_ids: server.toolKeyIds ? JSON.stringify(server.toolKeyIds, null, 2) : '',
  };
}

/** A list field: names separated by commas or white space; '' is null (all). */
const list = (text: string): string[] | null => (text === '' ? null : text.split(/[\s,]+/).filter((item) => item !== ''));

/**
 * The posted form as the admin API's body, through its schema (a refusal is its 400 naming the
 * field). The credential: a typed value replaces it, `clear` removes it, and a form with no value
 * (and the header as stored) keeps the sealed one.
 */
export function parseServerForm(form: ReturnType<typeof formValues>, current: MaskedMcpServer | undefined): { name: string; body: SaveBody } {
  const { name } = validate(v.object({ name: serverName }), { name: current?.name ?? form.name });
  const keep = !form.clear && form.value === '' && (form.header === '' || form.header === current?.credential?.header);
  const credential = form.clear || keep ? null : { header: form.header, value: form.value };
  const wire = { url: form.url, transport: form.transport === '' ? undefined : form.transport, credential, tools: list(form.tools), key_ids: list(form.key_ids), tool_key_ids: jsonField('tool_key_ids', form.tool_key_ids) };
  const body = validate(putSchema, wire);
  return { name, body: keep ? { ...body, credential: 'unchanged' } : body };
}
