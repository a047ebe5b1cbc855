import type { Organization } from '@svc/core';
import { LineChart, ShareBars } from './charts.js';
import { count, ms, percent, usd } from './format.js';
import type { Overview, RangeId } from './overview-data.js';
import { PeriodToolbar, rangeLabels } from './period-toolbar.js';


function Card(props: { label: string; value: string; sub?: string; testid: string }) {
  return (
    <div class="card" data-testid={props.testid}>
      <div class="label">{props.label}</div>
      <div class="value">{props.value}</div>
      {props.sub ? <div class="sub">{props.sub}</div> : null}
    </div>
  );
}

/** The period's totals, one card each. */
function TotalCards(props: { totals: Overview['totals'] }) {
  const { totals } = props;
  const savingsShare = totals.baselineCostUsd > 0 ? totals.savingsUsd / totals.baselineCostUsd : null;
  return (
    <div class="cards">
      <Card testid="requests" label="Requests" value={count(totals.requests)} sub={`${count(totals.errors)} errors`} />
      <Card testid="spend" label="Spend" value={usd(totals.costUsd)} sub={`${count(totals.totalTokens)} tokens`} />
      <Card testid="savings" label="Savings vs baseline" value={usd(totals.savingsUsd)} sub={`${percent(savingsShare)} of ${usd(totals.baselineCostUsd)}`} />
      <Card testid="cache-hit-rate" label="Cache hit rate" value={percent(totals.cacheHitRate)} sub={`${count(totals.cacheHits)} hits`} />
      <Card testid="latency" label="Latency p50 / p95" value={ms(totals.latencyP50Ms)} sub={`p95 ${ms(totals.latencyP95Ms)}`} />
    </div>
  );
}

/** Requests, spend against baseline, cache hit rate and latency over the period. */
function SeriesCharts(props: { overview: Overview }) {
  const { series, bucket } = props.overview;
  const labels = series.map((p) => (bucket === 'hour' ? `${p.start.toISOString().slice(11, 16)}` : p.start.toISOString().slice(5, 10)));
  return (
    <div class="grid2">
      <LineChart title="Requests" labels={labels} series={[{ name: 'requests', color: '#3b5bdb', values: series.map((p) => p.requests) }]} format={(v) => count(Math.round(v))} />
      <LineChart
        title="Spend and baseline (USD)"
        labels={labels}
        series={[
          { name: 'spend', color: '#3b5bdb', values: series.map((p) => p.costUsd) },
          { name: 'baseline', color: '#adb5bd', values: series.map((p) => p.baselineCostUsd) },
        ]}
        format={usd}
      />
      <LineChart title="Cache hit rate" labels={labels} max={1} series={[{ name: 'hit rate', color: '#2b8a3e', values: series.map((p) => p.cacheHitRate) }]} format={percent} />
      <LineChart
        title="Latency"
        labels={labels}
        series={[
          { name: 'p50', color: '#3b5bdb', values: series.map((p) => p.latencyP50Ms) },
          { name: 'p95', color: '#e8590c', values: series.map((p) => p.latencyP95Ms) },
        ]}
        format={ms}
      />
    </div>
  );
}

/** `30 s`, `2 min`: a window length for a caption. */
function span(windowMs: number): string {
  return windowMs < 120_000 ? `${Math.round(windowMs / 1000)} s` : `${Math.round(windowMs / 60_000)} min`;
}

/**
 * Each breaker's state with two counts that say what they cover: the breaker's own rolling
 * window (every organisation, what opens it) and the model's requests in the page's period.
 */
function BreakersFigure(props: { breakers: Overview['breakers']; windowMs: number; range: RangeId }) {
  const { breakers } = props;
  const window = span(props.windowMs);
  return (
    <figure class="chart" data-testid="breakers">
      <figcaption>Circuit breakers</figcaption>
      {breakers.length === 0 ? <p class="muted">No breaker has seen traffic yet.</p> : null}
      <table>
        <thead>
          <tr>
            <th>Model</th>
            <th>State</th>
            <th class="num" data-testid="breaker-window">Calls, last {window} (all orgs)</th>
            <th class="num">Requests, {rangeLabels[props.range].toLowerCase()}</th>
          </tr>
        </thead>
        <tbody>
          {breakers.map((b) => (
            <tr data-breaker={b.key}>
              <td>{b.key}</td>
              <td>
                <span class={`pill ${b.state === 'closed' ? 'ok' : 'bad'}`}>{b.state}</span>
              </td>
              <td class="num">
                {b.failures} failed / {b.successes} ok
              </td>
              <td class="num" data-testid="breaker-period">
                {count(b.period.failed)} failed / {count(b.period.requests)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="muted">A breaker counts its calls over a rolling {window} window only (it opens on a streak of failures or on the failure ratio of that window); the last column is the ledger&apos;s requests served by the model in the period.</p>
    </figure>
  );
}

export function OverviewPage(props: { overview: Overview; org: Organization | undefined; orgs: Organization[] }) {
  const { diversity, nextStep } = props.overview;
  return (
    <>
      <PeriodToolbar range={props.overview.range} org={props.org} orgs={props.orgs} href={(range, org) => `/dashboard?range=${range}${org ? `&org=${org.id}` : ''}`} />
      <p class="muted" data-testid="scope">
        {props.org ? `Organisation ${props.org.name}` : 'Whole fleet'} · {rangeLabels[props.overview.range]} · UTC
      </p>
      {nextStep ? (
        <div class="next" data-testid="next-step">
          <strong>Next step: {nextStep.title}.</strong> {nextStep.detail} {nextStep.href ? <a href={nextStep.href}>Go →</a> : null}
        </div>
      ) : null}
      <TotalCards totals={props.overview.totals} />
      <SeriesCharts overview={props.overview} />
      <div class="grid2">
        <ShareBars
          title={`Model shares · entropy ${diversity.entropy_bits.toFixed(2)} bits over ${count(diversity.decisions)} decisions${diversity.alarms.length ? ' · arm collapse!' : ''}`}
          shares={diversity.models.map((m) => ({ label: m.model, share: m.share, detail: `${percent(m.share)} · ${count(m.count)}` }))}
        />
        <BreakersFigure breakers={props.overview.breakers} windowMs={props.overview.breakerWindowMs} range={props.overview.range} />
      </div>
    </>
  );
}
