import type { Organization } from '@svc/core';
import type { JudgedFigures } from '@svc/db';
import { type GateEvaluation, type GateRouteChange, judgedWinRate } from '@svc/reports';
import type { shadowSettingsWire } from '../routes/admin-shadow-judging.js';
import { AdminForm } from './admin-form.js';
import type { RangeId } from './overview-data.js';
import { PeriodToolbar } from './period-toolbar.js';
import { count, percent, usd } from './format.js';

export interface QualityPageProps {
  range: RangeId;
  /** Undefined: the whole fleet (admins). */
  org: Organization | undefined;
  orgs: Organization[];
  /** Shadow judging's verdicts of the period, per task kind and candidate model. */
  judged: readonly JudgedFigures[];
  /** The regression gate's days of the period, newest first, with their route changes. */
  gate: readonly GateEvaluation[];
  /** The organisation's shadow judging; undefined for the whole fleet. */
  shadow: ReturnType<typeof shadowSettingsWire> | undefined;
  csrf: string;
  /** Admins change shadow judging; members only read. */
  canEdit: boolean;
  /** A save of shadow judging the admin API's rules refused: its message (it names the field). */
  refused?: string | undefined;
}

const judgeErrorSources = { setting: 'as set', feedback: 'estimated from judged pairs that also got feedback', default: 'the default; no rate set and too few judged pairs with feedback' } as const;

/** The judge error share the router's learner assumes, and where it comes from. */
function judgeErrorText(judgeError: NonNullable<QualityPageProps['shadow']>['judge_error']): string {
  if (!judgeError) return '';
  const pairs = judgeError.source === 'feedback' ? ` over ${count(judgeError.pairs)} pairs` : '';
  return ` The learner assumes the judge wrong on ${percent(judgeError.rate)} of its verdicts (${judgeErrorSources[judgeError.source]}${pairs}).`;
}

const interval = (rate: ReturnType<typeof judgedWinRate>) => (rate.interval ? `${percent(rate.interval.low)} – ${percent(rate.interval.high)}` : '–');

/** Per task kind and candidate model: its judged win rate against the served model, with its 95 % interval. */
function JudgedTable(props: { judged: readonly JudgedFigures[] }) {
  if (props.judged.length === 0) return <p class="muted">No judged pairs in this period: turn shadow judging on below, or widen the period.</p>;
  return (
    <table data-testid="judged">
      <thead>
        <tr>
          <th>Task kind</th>
          <th>Candidate model</th>
          <th>Pairs</th>
          <th>Wins / losses / ties</th>
          <th>Win rate</th>
          <th>95 % interval</th>
          <th>Judging cost</th>
        </tr>
      </thead>
      <tbody>
        {props.judged.map((row) => {
          const rate = judgedWinRate(row);
          return (
            <tr data-task-kind={row.taskKind} data-model={row.model}>
              <td>{row.taskKind}</td>
              <td>
                <code>{row.model}</code>
              </td>
              <td class="num">{count(row.samples)}</td>
              <td class="num">{`${row.wins} / ${row.losses} / ${row.ties}`}</td>
              <td class="num">{percent(rate.win_rate)}</td>
              <td class="num">{interval(rate)}</td>
              <td class="num">{usd(row.candidateCostUsd + row.judgeCostUsd)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Each route change of the period: the gate's day, the task kind, whether served traffic changed or the learner proposed it, from and to, promoted or refused and why. */
function RouteChanges(props: { gate: readonly GateEvaluation[] }) {
  const changes = props.gate.flatMap((day) => (day.route_changes ?? []).map((change): [string, GateRouteChange] => [day.start.slice(0, 10), change]));
  if (changes.length === 0) return <p class="muted">No task kind changed its route in this period.</p>;
  return (
    <table data-testid="route-changes">
      <thead>
        <tr>
          <th>Day</th>
          <th>Task kind</th>
          <th>Seen in</th>
          <th>From → to</th>
          <th>Gate</th>
          <th>Why</th>
          <th>Judged win rate (least allowed)</th>
        </tr>
      </thead>
      <tbody>
        {changes.map(([day, change]) => (
          <tr data-status={change.status}>
            <td>{day}</td>
            <td>{change.task_kind}</td>
            <td>{change.origin === 'learner' ? `the learner's proposal (${count(change.decisions)} decisions)` : 'served traffic'}</td>
            <td>
              <code>{change.from}</code> → <code>{change.to}</code>
            </td>
            <td>
              <span class="pill">{change.status}</span>
            </td>
            <td>{change.reason.replaceAll('_', ' ')}</td>
            <td class="num">{`${percent(change.judged.win_rate)} (${percent(change.limit)})`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The cautious start's line of the summary (docs/routing.md, "A cautious start"). */
function startText(cautiousStart: boolean): string {
  return cautiousStart ? ' Cautious start on.' : " Cautious start off: the router's cheap choice serves a task kind until a move up is proven.";
}

/** The organisation's shadow judging, and for admins the form that replaces it (the admin API's schema). */
function ShadowPanel(props: { org: Organization; shadow: NonNullable<QualityPageProps['shadow']>; csrf: string; canEdit: boolean; refused: string | undefined }) {
  const { shadow } = props;
  const summary = shadow.enabled
    ? `On: ${percent(shadow.sample_rate)} of requests, candidates ${shadow.candidate_models?.join(', ') ?? "the served model's cheaper models of its pool and its closest pricier one"}, judge ${shadow.judge_model}, at most ${usd(shadow.daily_budget_usd)} a day.${judgeErrorText(shadow.judge_error)}${startText(shadow.cautious_start)}`
    : `Off.${startText(shadow.cautious_start)}`;
  if (!props.canEdit) return <p data-testid="shadow-settings">{summary} Shadow judging is set by an administrator.</p>;
  return (
    <>
      <p data-testid="shadow-settings">{summary}</p>
      <AdminForm action={`/dashboard/quality/${props.org.id}/shadow`} csrf={props.csrf} testid="shadow-form" refused={props.refused} errorTestid="shadow-error">
        <label for="enabled">On</label>
        <input id="enabled" name="enabled" type="checkbox" value="true" checked={shadow.enabled} />
        <label for="sample_rate">Share of requests judged (0 to 1)</label>
        <input id="sample_rate" name="sample_rate" type="number" min={0} max={1} step="any" value={String(shadow.sample_rate)} />
        <label for="candidate_models">Candidate models (comma-separated; empty: cheaper models of the pool and the closest pricier one)</label>
        <input id="candidate_models" name="candidate_models" value={shadow.candidate_models?.join(', ') ?? ''} />
        <label for="judge_model">Judge model</label>
        <input id="judge_model" name="judge_model" value={shadow.judge_model ?? ''} placeholder="openai/gpt-4.1" />
        <label for="daily_budget_usd">Daily budget (USD)</label>
        <input id="daily_budget_usd" name="daily_budget_usd" type="number" min={0} step="any" value={String(shadow.daily_budget_usd)} />
        <label for="judge_error_rate">Judge's error rate (0 to 0.45; empty: estimated from feedback, else 0.15)</label>
        <input id="judge_error_rate" name="judge_error_rate" type="number" min={0} max={0.45} step="any" value={shadow.judge_error_rate === null ? '' : String(shadow.judge_error_rate)} />
        <label for="cautious_start">Cautious start (a pricier model judged against the router's cheap choice serves a task kind until the cheap one is plausibly as good)</label>
        <input id="cautious_start" name="cautious_start" type="checkbox" value="true" checked={shadow.cautious_start} />
        <button type="submit">Save shadow judging</button>
      </AdminForm>
    </>
  );
}

/** Routing quality: what shadow judging found, what the regression gate promoted or refused, and the organisation's shadow judging. */
export function QualityPage(props: QualityPageProps) {
  return (
    <>
      <PeriodToolbar range={props.range} org={props.org} orgs={props.orgs} href={(range, org) => `/dashboard/quality?range=${range}${org ? `&org=${org.id}` : ''}`} />
      <h2>Judged quality</h2>
      <JudgedTable judged={props.judged} />
      <h2>Route changes and the gate</h2>
      <RouteChanges gate={props.gate} />
      <h2>Shadow judging</h2>
      {props.org && props.shadow ? (
        <ShadowPanel org={props.org} shadow={props.shadow} csrf={props.csrf} canEdit={props.canEdit} refused={props.refused} />
      ) : (
        <p class="muted">Pick an organisation to see or change its shadow judging.</p>
      )}
    </>
  );
}
