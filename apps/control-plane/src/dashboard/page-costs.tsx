import type { ApiKeyRecord } from '@svc/auth';
import type { Organization } from '@svc/core';
import type { CostFigures } from '@svc/db';
import type { ControlPlaneDeps } from '../deps.js';
import { count, keyLabel, percent, usd } from './format.js';
import { periodOf, type RangeId } from './overview-data.js';
import { PeriodToolbar, rangeLabels } from './period-toolbar.js';

export interface CostsView {
  range: RangeId;
  byKey: CostFigures[];
  byModel: CostFigures[];
  keys: ApiKeyRecord[];
}

/** Spend per API key and per served model over the period, from the ledger and the decision log. */
export async function loadCosts(deps: ControlPlaneDeps, org: Organization | undefined, range: RangeId): Promise<CostsView> {
  const { since, until } = periodOf(range);
  const filter = { since, until, ...(org ? { orgId: org.id } : {}) };
  const [byKey, byModel, keys] = await Promise.all([deps.db.traffic.costs(filter, 'key'), deps.db.traffic.costs(filter, 'model'), deps.db.keys.list(org?.id)]);
  return { range, byKey, byModel, keys };
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
    </>
  );
}
