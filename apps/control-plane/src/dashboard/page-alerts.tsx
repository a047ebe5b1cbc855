import { type SloCompliance, describeSlo, sloAlertKey } from '@svc/alerts';
import type { AlertKind, Organization } from '@svc/core';
import type { AlertRecord, SloRecord } from '@svc/db';
import type { ControlPlaneDeps } from '../deps.js';
import { judgeSlos } from '../routes/slo.js';
import { percent, when } from './format.js';

export interface AlertsView {
  slos: { slo: SloRecord; compliance: SloCompliance; firing: boolean }[];
  /** Firing now, oldest first. */
  firing: AlertRecord[];
  /** The latest alerts, newest first (firing and resolved). */
  history: AlertRecord[];
}

/** What the evaluator watches: one rule a kind (spec document 2 §Alerts). */
const rules: readonly { kind: AlertKind; label: string; detail: string }[] = [
  { kind: 'slo_breach', label: 'SLO breach', detail: 'an SLO below its target over its window (one alert per SLO)' },
  { kind: 'breaker_open', label: 'Circuit breaker open', detail: "a model's breaker opened (platform-wide, every organisation sees it)" },
  { kind: 'limit_spike', label: 'Refusal spike', detail: 'many requests of an organisation refused by its rate limit, budget or quota in a minute' },
];

/** The SLOs (with compliance now) and the alerts of `org` (and the platform-wide ones), or of the fleet. */
export async function loadAlerts(deps: ControlPlaneDeps, org: Organization | undefined, now = new Date()): Promise<AlertsView> {
  const scope = org ? { orgId: org.id } : {};
  const [slos, firing, history] = await Promise.all([deps.db.slos.list(org?.id), deps.db.alerts.list({ ...scope, status: 'firing', limit: 200 }), deps.db.alerts.list({ ...scope, limit: 50 })]);
  const firingKeys = new Set(firing.map((a) => a.dedupeKey));
  const judged = await judgeSlos(deps, slos, now);
  return { slos: judged.map((j) => ({ ...j, firing: firingKeys.has(sloAlertKey(j.slo.id)) })), firing: [...firing].reverse(), history };
}

/**
 * The SLO's burn rate over its window: the share of bad hours over the share its target allows
 * (1 = spending the budget exactly as fast as allowed); null without traffic or with a target of 100 %.
 */
export function burnRate(slo: Pick<SloRecord, 'target'>, compliance: SloCompliance): number | null {
  if (compliance.slices === 0 || slo.target >= 1) return null;
  return (compliance.slices - compliance.goodSlices) / compliance.slices / (1 - slo.target);
}

function SloTable(props: { slos: AlertsView['slos'] }) {
  return (
    <table data-testid="slos">
      <thead>
        <tr>
          <th>SLO</th>
          <th>Objective</th>
          <th>State</th>
          <th class="num">Good hours</th>
          <th class="num">Burn rate</th>
          <th class="num">Budget left</th>
        </tr>
      </thead>
      <tbody>
        {props.slos.map(({ slo, compliance, firing }) => {
          const burn = burnRate(slo, compliance);
          return (
            <tr data-slo={slo.name}>
              <td>{slo.name}</td>
              <td>{describeSlo(slo)}</td>
              <td>
                <span class={`pill ${compliance.status === 'breached' ? 'bad' : 'ok'}`}>{compliance.status === 'breached' ? 'breached' : compliance.status === 'met' ? 'ok' : 'no data'}</span>
                {firing ? <span class="pill bad">firing</span> : null}
              </td>
              <td class="num">{`${compliance.goodSlices} / ${compliance.slices} (${percent(compliance.compliance)})`}</td>
              <td class="num">{burn === null ? '–' : `${burn.toFixed(2)}×`}</td>
              <td class="num">{compliance.errorBudgetRemainingHours === null ? '–' : `${compliance.errorBudgetRemainingHours} h`}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function AlertTable(props: { alerts: AlertRecord[]; testid: string }) {
  return (
    <table data-testid={props.testid}>
      <thead>
        <tr>
          <th>Fired</th>
          <th>Kind</th>
          <th>Severity</th>
          <th>Subject</th>
          <th>Message</th>
          <th>Status</th>
        </tr>
      </thead>
      <tbody>
        {props.alerts.map((a) => (
          <tr data-alert-id={a.id}>
            <td>{when(a.firedAt)}</td>
            <td>{a.kind}</td>
            <td>{a.severity}</td>
            <td>{a.subject}</td>
            <td>{a.message}</td>
            <td>
              <span class={`pill ${a.status === 'firing' ? 'bad' : 'ok'}`}>{a.status === 'firing' ? 'firing' : `resolved ${when(a.resolvedAt)}`}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** An admin's choice of organisation (alerts and SLOs have no period: each SLO has its own window). */
function OrgPicker(props: { org: Organization | undefined; orgs: Organization[] }) {
  return (
    <div class="toolbar">
      <a href="/dashboard/alerts" class={props.org ? undefined : 'active'}>
        Whole fleet
      </a>
      {props.orgs.map((o) => (
        <a href={`/dashboard/alerts?org=${o.id}`} class={props.org?.id === o.id ? 'active' : undefined}>
          {o.name}
        </a>
      ))}
    </div>
  );
}

export function AlertsPage(props: { view: AlertsView; org: Organization | undefined; orgs: Organization[] }) {
  const { view } = props;
  const firingOf = (kind: string) => view.firing.filter((a) => a.kind === kind).length;
  return (
    <>
      {props.orgs.length > 0 ? <OrgPicker org={props.org} orgs={props.orgs} /> : null}
      <p class="muted" data-testid="scope">
        {props.org ? `Organisation ${props.org.name} and platform-wide alerts` : 'Whole fleet'} · evaluated now
      </p>
      <h2>Rules</h2>
      <table data-testid="alert-rules">
        <tbody>
          {rules.map((rule) => (
            <tr data-rule={rule.kind}>
              <td>{rule.label}</td>
              <td class="muted">{rule.detail}</td>
              <td>{firingOf(rule.kind) > 0 ? <span class="pill bad">{`${firingOf(rule.kind)} firing`}</span> : <span class="pill ok">ok</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Service-level objectives</h2>
      <SloTable slos={view.slos} />
      {view.slos.length === 0 ? <p class="muted">No SLO yet: POST /v1/slo defines one.</p> : null}
      <h2>Firing now</h2>
      {view.firing.length === 0 ? <p class="muted" data-testid="no-firing">Nothing is firing.</p> : <AlertTable alerts={view.firing} testid="firing" />}
      <h2>History</h2>
      <AlertTable alerts={view.history} testid="alert-history" />
      {view.history.length === 0 ? <p class="muted">No alert yet.</p> : null}
    </>
  );
}
