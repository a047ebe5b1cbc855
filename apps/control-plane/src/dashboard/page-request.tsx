import type { ApiKeyRecord } from '@svc/auth';
import type { RequestLogEntry, RoutingDecisionRecord } from '@svc/db';
import { keyLabel, ms, usd, when } from './format.js';

/** A JSON value of the decision log as text for a cell ('–' when absent). */
function text(value: unknown): string {
  if (value === undefined || value === null) return '–';
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
}

const field = (value: unknown, name: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined);

/**
 * The decision's details without `metadata`: that is the client's own tracing context (free
 * text the gateway never reads), kept for the admin API, not shown on a page.
 */
export function shownDetails(details: Record<string, unknown>): Record<string, unknown> {
  // The router's features (long) go last, after the facts one reads first.
  const { metadata: _metadata, features, ...shown } = details;
  return features === undefined ? shown : { ...shown, features };
}

export interface RequestPageProps {
  decision: RoutingDecisionRecord;
  orgName: string;
  /** The request as the log shows it (cost, key, end user hash, memories, status); absent when nothing was billed. */
  entry: RequestLogEntry | undefined;
  keys: ApiKeyRecord[];
}

/** The ledger's facts of the request: none when it was never billed (every candidate failed). */
function ledgerFacts(entry: RequestLogEntry | undefined, keys: ApiKeyRecord[]): [string, string][] {
  if (!entry) return [['Ledger', 'no row (nothing was billed)']];
  return [
    ['Key', keyLabel(keys, entry.keyId)],
    ['End user (hash)', entry.endUser ?? '–'],
    ['Cache', entry.cache ?? 'none'],
    ['Memories injected', entry.memoryInjected === null ? '–' : String(entry.memoryInjected)],
    ['Cost', usd(entry.costUsd)],
    ['Status', entry.status === null ? '–' : String(entry.status)],
  ];
}

function Facts(props: RequestPageProps) {
  const d = props.decision;
  const facts: [string, string][] = [
    ['Request', d.requestId],
    ['Time', when(d.createdAt)],
    ['Organisation', props.orgName],
    ['Asked for', d.requestedModel ?? '–'],
    ['Served by', `${d.model} (${d.provider})`],
    ['Tier · lane', `${d.tier ?? '–'} · ${d.lane ?? '–'}`],
    ['Reason (source)', d.source],
    ['Task family · mode', `${d.taskFamily ?? '–'} · ${d.intelligenceMode ?? '–'}`],
    ['Outcome', d.outcome],
    ['Latency', ms(d.latencyMs)],
    ...ledgerFacts(props.entry, props.keys),
  ];
  return (
    <table data-testid="decision-facts">
      <tbody>
        {facts.map(([label, value]) => (
          <tr>
            <th>{label}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One routing decision: what was asked, the waterfall's attempts, the scored candidates and the audit details. */
export function RequestPage(props: RequestPageProps) {
  const { decision } = props;
  return (
    <>
      <p>
        <a href={`/dashboard/requests?org=${decision.orgId}`}>← Request log</a>
      </p>
      <Facts {...props} />
      <h2>Attempts</h2>
      {decision.attempts.length === 0 ? <p class="muted">No provider call (a cache hit, or refused before the call).</p> : null}
      <table data-testid="attempts">
        <thead>
          <tr>
            <th class="num">#</th>
            <th>Model</th>
            <th>Outcome</th>
            <th>Error</th>
            <th class="num">Upstream status</th>
            <th class="num">Latency</th>
          </tr>
        </thead>
        <tbody>
          {decision.attempts.map((a, i) => (
            <tr>
              <td class="num">{i + 1}</td>
              <td>{text(field(a, 'model'))}</td>
              <td>
                <span class={`pill ${field(a, 'outcome') === 'ok' ? 'ok' : 'bad'}`}>{text(field(a, 'outcome'))}</span>
              </td>
              <td>{text(field(a, 'errorKind'))}</td>
              <td class="num">{text(field(a, 'upstreamStatus'))}</td>
              <td class="num">{ms(Number(field(a, 'latencyMs') ?? 0))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Candidates</h2>
      <table data-testid="candidates">
        <thead>
          <tr>
            <th>Candidate</th>
            <th class="num">Router score</th>
          </tr>
        </thead>
        <tbody>
          {decision.candidates.slice(0, 20).map((c) => (
            <tr>
              <td>{text(field(c, 'id'))}</td>
              <td class="num">{typeof field(c, 'score') === 'number' ? (field(c, 'score') as number).toFixed(4) : '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Details</h2>
      <pre class="details" data-testid="decision-details">
        {JSON.stringify(shownDetails(decision.details), null, 2)}
      </pre>
    </>
  );
}
