/** Parses `30d`, `12h`, `90m`, `3600s` into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)\s*([smhdw])$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[match[2] as 's' | 'm' | 'h' | 'd' | 'w'];
  return Number(match[1]) * unit;
}

/** A non-negative number option, or an error naming the flag. */
export function parseNumber(flag: string, text: string | undefined, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new CliError(`--${flag} must be a ${integer ? 'whole ' : ''}number >= 0 (got '${text}')`);
  }
  return value;
}

export class CliError extends Error {
  override name = 'CliError';
}

export const usage = `usage: svc <command>

  svc orgs create NAME [--plan P] [--rpm N] [--tpm N] [--budget-usd X] [--token-quota N] [--free-models-only]
  svc orgs list
  svc keys create --org NAME [--name N] [--scopes a,b] [--rpm N] [--tpm N] [--budget-usd X] [--expires-in 30d]
        (--rpm, --tpm and --budget-usd hold this key, on top of its organisation's limits, which
         svc orgs create sets)
  svc keys list [--org NAME]
  svc keys revoke ID
  svc users create --email ADDRESS --org NAME [--role admin|member]   (prints a one-time enrollment link)
  svc users enroll EMAIL                                              (a new link; the previous one stops working)
  svc users list
  svc users disable EMAIL | enable EMAIL | delete EMAIL | end-sessions EMAIL
        (disable, delete and end-sessions sign the user out on every instance at once)
  svc users set-role EMAIL --role admin|member
  svc master-key rotate [--grace 10m]
        (prints a new master key once; the previous one is revoked, or works for the grace period:
         set SVC_MASTER_KEY to the new key before the next restart)
  svc migrate
  svc backup FILE        (the embedded store, from one snapshot; through the running gateway's admin API when one holds SVC_DATA_DIR)
  svc restore FILE       (replaces the embedded store in SVC_DATA_DIR with a backup; no gateway may run on it; the store it held is kept aside)

Uses DATABASE_URL (or the embedded store in SVC_DATA_DIR, which has one writer: while a gateway
runs on it the CLI sends the command to that gateway's admin API, with SVC_MASTER_KEY) and
REDIS_URL (revocations reach running instances at once). Enrollment links point at
SVC_DASHBOARD_ORIGIN (default http://localhost:CONTROL_PORT).`;
