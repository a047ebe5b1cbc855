import type { Organization } from '@svc/core';
import type { RangeId } from './overview-data.js';

export const rangeLabels: Record<RangeId, string> = { '24h': 'Last 24 hours', '7d': 'Last 7 days', '30d': 'Last 30 days' };

/**
 * Picks the period and (admins) the organisation or the whole fleet; `href` builds the link of
 * a choice, keeping the page's other parameters.
 */
export function PeriodToolbar(props: { range: RangeId; org: Organization | undefined; orgs: Organization[]; href: (range: RangeId, org: Organization | undefined) => string }) {
  const { range, org } = props;
  return (
    <div class="toolbar">
      {(Object.keys(rangeLabels) as RangeId[]).map((id) => (
        <a href={props.href(id, org)} class={range === id ? 'active' : undefined}>
          {rangeLabels[id]}
        </a>
      ))}
      {props.orgs.length > 0 ? (
        <>
          <span class="muted">·</span>
          <a href={props.href(range, undefined)} class={org ? undefined : 'active'}>
            Whole fleet
          </a>
          {props.orgs.map((o) => (
            <a href={props.href(range, o)} class={org?.id === o.id ? 'active' : undefined}>
              {o.name}
            </a>
          ))}
        </>
      ) : null}
    </div>
  );
}

/** An admin's organisation picker of a page about one organisation (`path?org=<id>`); nothing for members. */
export function OrgPicker(props: { path: string; org: Organization; orgs: Organization[] }) {
  if (props.orgs.length === 0) return null;
  return (
    <div class="toolbar">
      {props.orgs.map((o) => (
        <a href={`${props.path}?org=${o.id}`} class={o.id === props.org.id ? 'active' : undefined}>
          {o.name}
        </a>
      ))}
    </div>
  );
}
