import type { ModelInfo } from '@svc/catalog';
import type { StoredModelView } from '../deps.js';

export interface ModelsPageProps {
  /** Every model the catalog serves now: built in, configured, stored, discovered. */
  models: readonly ModelInfo[];
  /** The entries stored through the admin API (added models and overrides). */
  stored: readonly StoredModelView[];
  csrf: string;
  /** Admins change entries and refresh discovery; members only read. */
  canEdit: boolean;
  /** What the last discovery refresh found, per provider. */
  refreshed?: readonly { provider: string; models: number | null; error?: string | undefined }[];
}

const usd = (value: number | undefined) => (value === undefined ? '–' : `$${value}`);

/** The served models with where each comes from, its prices and its retirement. */
function ModelsTable(props: Pick<ModelsPageProps, 'models' | 'stored'>) {
  const storedIds = new Set(props.stored.map((view) => view.record.id));
  return (
    <table data-testid="models">
      <thead>
        <tr>
          <th>Model</th>
          <th>Source</th>
          <th>Kind</th>
          <th>Tier</th>
          <th>Input / output per Mtok</th>
          <th>Cached input</th>
          <th>Context</th>
          <th>Retires</th>
        </tr>
      </thead>
      <tbody>
        {props.models.map((model) => (
          <tr data-model-id={model.id}>
            <td>
              <code>{model.id}</code>
            </td>
            <td>{storedIds.has(model.id) ? 'stored' : (model.source ?? 'catalog')}</td>
            <td>{model.kind}</td>
            <td>{model.tier}</td>
            <td>{model.unpriced ? 'unpriced' : `${usd(model.inputPricePerMTok)} / ${usd(model.outputPricePerMTok)}`}</td>
            <td>{usd(model.cachedInputPricePerMTok)}</td>
            <td>{model.contextWindow.toLocaleString('en')}</td>
            <td>{model.retiresAt ? `${model.retiresAt.slice(0, 10)}${model.replacement ? ` → ${model.replacement}` : ''}` : '–'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Adds a model or overrides a built-in one's prices and retirement (the admin API's PUT /v1/admin/models/{model}). */
function OverrideForm(props: Pick<ModelsPageProps, 'csrf'>) {
  const input = (name: string, label: string, placeholder: string) => (
    <>
      <label for={name}>{label}</label>
      <input id={name} name={name} placeholder={placeholder} />
    </>
  );
  return (
    <form method="post" action="/dashboard/models" class="panel" data-testid="model-form">
      <input type="hidden" name="_csrf" value={props.csrf} />
      {input('id', 'Model id', 'openai/gpt-4o-mini')}
      {input('input_price_per_mtok', 'Input USD per Mtok', 'unchanged')}
      {input('output_price_per_mtok', 'Output USD per Mtok', 'unchanged')}
      {input('cached_input_price_per_mtok', 'Cached input USD per Mtok', 'unchanged')}
      {input('retires_at', 'Retires on', '2026-12-31')}
      {input('replacement', 'Replacement', 'openai/gpt-4.1-mini')}
      <button type="submit">Save</button>
    </form>
  );
}

function RefreshForm(props: Pick<ModelsPageProps, 'csrf' | 'refreshed'>) {
  return (
    <form method="post" action="/dashboard/models/refresh" class="inline" data-testid="refresh-form">
      <input type="hidden" name="_csrf" value={props.csrf} />
      <button type="submit">Refresh discovered models</button>
      {props.refreshed ? (
        <ul data-testid="refreshed">
          {props.refreshed.map((entry) => (
            <li>{`${entry.provider}: ${entry.models === null ? `not read (${entry.error ?? 'unavailable'})` : `${entry.models} models`}`}</li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}

/** The models page: what is served and from where; admins add or override entries, seen by every instance. */
export function ModelsPage(props: ModelsPageProps) {
  return (
    <>
      <p class="muted">
        Every model the gateway serves now. A stored entry (added here or through <code>PUT /v1/admin/models/&#123;model&#125;</code>)
        reaches every instance without a restart.
      </p>
      {props.canEdit ? (
        <>
          <OverrideForm csrf={props.csrf} />
          <RefreshForm csrf={props.csrf} refreshed={props.refreshed} />
        </>
      ) : null}
      <ModelsTable models={props.models} stored={props.stored} />
    </>
  );
}
