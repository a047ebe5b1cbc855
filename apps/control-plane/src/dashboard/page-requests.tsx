import type { ApiKeyRecord } from '@svc/auth';
import type { Organization } from '@svc/core';
import type { RequestLogEntry, TagSpend } from '@svc/db';
import { count, keyLabel, ms, usd } from './format.js';
import { PeriodToolbar } from './period-toolbar.js';
import { type RequestLogView, requestLogHref } from './requests-data.js';

/** GET filters: key, served model, end user; the period and organisation ride along hidden. */
function FilterForm(props: { view: RequestLogView; org: Organization | undefined }) {
  const { filters, keys } = props.view;
  return (
    <form method="get" action="/dashboard/requests" class="filters" data-testid="request-filters">
      <input type="hidden" name="range" value={filters.range} />
      {props.org ? <input type="hidden" name="org" value={props.org.id} /> : null}
      <label>
        Key
        <select name="key" id="filter-key">
          <option value="">any key</option>
          {keys.map((k) => (
            <option value={k.id} selected={filters.key === k.id}>
              {keyLabel(keys, k.id)}
            </option>
          ))}
        </select>
      </label>
      <label>
        Model
        <input type="text" name="model" id="filter-model" value={filters.model} placeholder="provider/model" />
      </label>
      <label>
        End user
        <input type="text" name="user" id="filter-user" value={filters.user} placeholder="id, or u:… hash" />
      </label>
      <label>
        Batch
        <input type="text" name="batch" id="filter-batch" value={filters.batch} placeholder="batch_…" />
      </label>
      <button type="submit" data-testid="apply-filters">
        Filter
      </button>
    </form>
  );
}

function cacheLabel(entry: RequestLogEntry): string {
  return entry.cache ?? 'none';
}

function statusPill(entry: RequestLogEntry) {
  const ok = entry.outcome === 'ok' && (entry.status === null || entry.status < 400);
  return <span class={`pill ${ok ? 'ok' : 'bad'}`}>{entry.status === null ? entry.outcome : `${entry.status}${entry.outcome === 'ok' ? '' : ` ${entry.outcome}`}`}</span>;
}

function Row(props: { entry: RequestLogEntry; keys: ApiKeyRecord[] }) {
  const { entry } = props;
  const routed = entry.requestedModel && entry.requestedModel !== entry.model ? `${entry.requestedModel} → ${entry.model}` : entry.model;
  return (
    <tr data-request-id={entry.requestId}>
      <td>{entry.createdAt.toISOString().replace('T', ' ').slice(0, 19)}</td>
      <td>{routed}</td>
      <td>{entry.source ? `${entry.tier ?? '–'} · ${entry.source}` : '–'}</td>
      <td data-testid="cache">{cacheLabel(entry)}</td>
      <td class="num">{entry.memoryInjected === null ? '–' : count(entry.memoryInjected)}</td>
      <td>
        {keyLabel(props.keys, entry.keyId)}
        {entry.batchId ? <span class="muted" data-testid="batch">{` · ${entry.batchId}`}</span> : null}
      </td>
      <td class="num">
        {usd(entry.costUsd)}
        {entry.interactiveCostUsd === null ? null : <span class="muted" data-testid="saved">{` · saved ${usd(Math.max(0, entry.interactiveCostUsd - entry.costUsd))}`}</span>}
      </td>
      <td class="num">{ms(entry.latencyMs)}</td>
      <td>
        {statusPill(entry)}
        {entry.guardrails ? <span class="muted" data-testid="guardrails">{` · ${entry.guardrails}`}</span> : null}
      </td>
      <td>{entry.hasDecision ? <a href={`/dashboard/requests/${encodeURIComponent(entry.requestId)}`}>decision →</a> : <span class="muted">no decision</span>}</td>
    </tr>
  );
}

/** The batch filter's lines summed: what they cost, at interactive prices, and what batch prices saved. */
function BatchSummary(props: { spend: TagSpend; batch: string }) {
  const { spend } = props;
  const saved = Math.max(0, spend.interactiveCostUsd - spend.costUsd);
  return (
    <p data-testid="batch-summary">
      Batch <code>{props.batch}</code>: {count(spend.requests)} lines billed in this period, {usd(spend.costUsd)} at batch prices, {usd(spend.interactiveCostUsd)} at interactive prices:{' '}
      <strong>saved {usd(saved)}</strong>
    </p>
  );
}

/** The request log: filters, one page of requests newest first, and a link to the older ones. */
export function RequestsPage(props: { view: RequestLogView; org: Organization | undefined; orgs: Organization[] }) {
  const { view, org } = props;
  const { entries, next } = view.page;
  return (
    <>
      <PeriodToolbar range={view.filters.range} org={org} orgs={props.orgs} href={(range, choice) => requestLogHref(view.filters, choice, { range })} />
      <FilterForm view={view} org={org} />
      {view.endUser ? (
        <p class="muted" data-testid="end-user-hash">
          End user hash <code>{view.endUser}</code> (as the access log shows it)
        </p>
      ) : null}
      {view.batch ? <BatchSummary spend={view.batch} batch={view.filters.batch} /> : null}
      <table data-testid="request-log">
        <thead>
          <tr>
            <th>Time (UTC)</th>
            <th>Model</th>
            <th>Tier · reason</th>
            <th>Cache</th>
            <th class="num">Memories</th>
            <th>Key</th>
            <th class="num">Cost</th>
            <th class="num">Latency</th>
            <th>Status</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <Row entry={entry} keys={view.keys} />
          ))}
        </tbody>
      </table>
      {entries.length === 0 ? <p class="muted">No request matches in this period.</p> : null}
      <p class="toolbar">
        {view.filters.cursor ? <a href={requestLogHref(view.filters, org)}>← Newest</a> : null}
        {next ? (
          <a href={requestLogHref(view.filters, org, { cursor: next })} data-testid="older">
            Older →
          </a>
        ) : null}
      </p>
    </>
  );
}
