import type { ApiKeyRecord } from '@svc/auth';
import type { Organization } from '@svc/core';
import type { CostFigures, TagSpend } from '@svc/db';
import type { ControlPlaneDeps } from '../deps.js';
import { count, keyLabel, percent, usd } from './format.js';
import { periodOf, type RangeId } from './overview-data.js';
import { PeriodToolbar, rangeLabels } from './period-toolbar.js';

export interface CostsView {
  range: RangeId;
  byKey: CostFigures[];
  byModel: CostFigures[];
  keys: ApiKeyRecord[];
  /** Cost per value of a request metadata tag (`?tag=team`), for one organisation. */
  byTag: { tag: string; rows: TagSpend[] } | undefined;
}

/** A tag name the costs page accepts (`?tag=`): a metadata key, 1 to 64 characters. */
export function costTagOf(value: string | undefined): string | undefined {
  const tag = value?.trim();
  return tag && tag.length <= 64 ? tag : undefined;
}

/** Spend per API key and per served model over the period, from the ledger and the decision log. */
export async function loadCosts(deps: ControlPlaneDeps, org: Organization | undefined, range: RangeId, tag?: string): Promise<CostsView> {
  const { since, until } = periodOf(range);
  const filter = { since, until, ...(org ? { orgId: org.id } : {}) };
  const tagged = org && tag ? deps.db.usage.byTag(org.id, tag, { since, until }) : undefined;
  const [byKey, byModel, keys, byTag] = await Promise.all([deps.db.traffic.costs(filter, 'key'), deps.db.traffic.costs(filter, 'model'), deps.db.keys.list(org?.id), tagged]);
  return { range, byKey, byModel, keys, byTag: tag && byTag ? { tag, rows: byTag } : undefined };
}

/** Cost attribution: spend per value of the chosen metadata tag (the organisation's requests' `metadata`). */
function TagTable(props: { org: Organization | undefined; range: RangeId; byTag: CostsView['byTag'] }) {
  if (!props.org) return <p class="muted">Choose an organisation to see its cost per request metadata tag.</p>;
  const rows = props.byTag?.rows ?? [];
  const total = rows.reduce((sum, row) => sum + row.costUsd, 0);
  return (
    <>
      <h2>Cost per tag</h2>
      <form method="get" action="/dashboard/costs">
        <input type="hidden" name="org" value={props.org.id} />
        <input type="hidden" name="range" value={props.range} />
        <label>
          Metadata tag <input name="tag" value={props.byTag?.tag ?? ''} placeholder="team" maxlength={64} />
        </label>{' '}
        <button type="submit">Show</button>
      </form>
      {props.byTag ? (
        <table data-testid="cost-by-tag">
          <thead>
            <tr>
              <th>{props.byTag.tag}</th>
              <th class="num">Requests</th>
              <th class="num">Tokens</th>
              <th class="num">Cost</th>
              <th class="num">Share</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr data-group={row.value ?? ''}>
                <td>{row.value ?? '(untagged)'}</td>
                <td class="num">{count(row.requests)}</td>
                <td class="num">{count(row.promptTokens + row.completionTokens)}</td>
                <td class="num">{usd(row.costUsd)}</td>
                <td class="num">{percent(total > 0 ? row.costUsd / total : null)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

function CostTable(props: { title: string; testid: string; rows: CostFigures[]; label: (group: string | null) => string }) {
  const total = props.rows.reduce((sum, row) => sum + row.costUsd, 0);
  return (
    <>
      <h2>{props.title}</h2>
      <table data-testid={props.testid}>
        <thead>
          <tr>
            <th>{props.title.replace('Cost per ', '')}</th>
            <th class="num">Requests</th>
            <th class="num">Failed</th>
            <th class="num">Cache hits</th>
            <th class="num">Tokens</th>
            <th class="num">Cost</th>
            <th class="num">Share</th>
            <th class="num">Savings vs baseline</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr data-group={row.group ?? ''}>
              <td>{props.label(row.group)}</td>
              <td class="num">{count(row.requests)}</td>
              <td class="num">{count(row.failed)}</td>
              <td class="num">{count(row.cacheHits)}</td>
              <td class="num">{count(row.promptTokens + row.completionTokens)}</td>
              <td class="num">{usd(row.costUsd)}</td>
              <td class="num">{percent(total > 0 ? row.costUsd / total : null)}</td>
              <td class="num">{usd(row.baselineCostUsd - row.costUsd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {props.rows.length === 0 ? <p class="muted">No requests in this period.</p> : null}
    </>
  );
}

export function CostsPage(props: { view: CostsView; org: Organization | undefined; orgs: Organization[] }) {
  const { view } = props;
  return (
    <>
      <PeriodToolbar range={view.range} org={props.org} orgs={props.orgs} href={(range, org) => `/dashboard/costs?range=${range}${org ? `&org=${org.id}` : ''}`} />
      <p class="muted" data-testid="scope">
        {props.org ? `Organisation ${props.org.name}` : 'Whole fleet'} · {rangeLabels[view.range]} · UTC · costs in USD from the usage ledger (a request&apos;s re-asks and drafts included)
      </p>
      <CostTable title="Cost per key" testid="cost-by-key" rows={view.byKey} label={(group) => keyLabel(view.keys, group, 'no key (failed before any spend)')} />
      <CostTable title="Cost per model" testid="cost-by-model" rows={view.byModel} label={(group) => group ?? '–'} />
      <TagTable org={props.org} range={view.range} byTag={view.byTag} />
    </>
  );
}
