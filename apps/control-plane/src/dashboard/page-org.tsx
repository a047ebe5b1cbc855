import type { Organization } from '@svc/core';
import type { MonthSpend } from '@svc/billing';
import { count, usd } from './format.js';
import { OrgPicker } from './period-toolbar.js';

const limitFields = [
  { name: 'rpm_limit', label: 'Requests per minute', value: (o: Organization) => o.rpmLimit },
  { name: 'tpm_limit', label: 'Tokens per minute', value: (o: Organization) => o.tpmLimit },
  { name: 'monthly_budget_usd', label: 'Monthly budget (USD)', value: (o: Organization) => o.monthlyBudgetUsd },
  { name: 'token_quota', label: 'Token quota', value: (o: Organization) => o.tokenQuota },
] as const;

export function OrgPage(props: { org: Organization; orgs: Organization[]; spend: MonthSpend; csrf: string; canEdit: boolean }) {
  const { org, spend } = props;
  return (
    <>
      <OrgPicker path="/dashboard/org" org={org} orgs={props.orgs} />
      <table data-testid="limits">
        <tbody>
          <tr>
            <th>Organisation</th>
            <td>
              {org.name} <span class="pill">{org.plan}</span>
            </td>
          </tr>
          {limitFields.map((f) => (
            <tr>
              <th>{f.label}</th>
              <td class="num">{f.value(org) === null ? 'unlimited' : count(f.value(org)!)}</td>
            </tr>
          ))}
          <tr>
            <th>Spent this month ({spend.month})</th>
            <td class="num">
              {usd(spend.spentUsd)} {spend.budgetUsd === null ? '' : `of ${usd(spend.budgetUsd)}`} · {count(spend.tokens)} tokens
            </td>
          </tr>
        </tbody>
      </table>
      {props.canEdit ? (
        <>
          <h2>Change limits</h2>
          <form method="post" action={`/dashboard/org/${org.id}`} class="panel">
            <input type="hidden" name="_csrf" value={props.csrf} />
            {limitFields.map((f) => (
              <>
                <label for={f.name}>{f.label} (empty: unlimited)</label>
                <input id={f.name} name={f.name} type="number" min={0} step={f.name === 'monthly_budget_usd' ? 'any' : 1} value={f.value(org) === null ? '' : String(f.value(org))} />
              </>
            ))}
            <button type="submit" data-testid="save-limits">
              Save limits
            </button>
          </form>
        </>
      ) : (
        <p class="muted">Limits are set by an administrator.</p>
      )}
    </>
  );
}
