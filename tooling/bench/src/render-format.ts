import type { MachineInfo } from './machine.js';

/** Fixed-point number, or an en dash for missing/NaN. */
export function fmt(value: number | undefined, digits = 2): string {
  return value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits);
}

/** A signed overhead like `+0.42`. */
export function signed(value: number | undefined, digits = 2): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;
}

/** A ratio like `0.85×`. */
export function times(value: number | undefined): string {
  return value === undefined ? '–' : `${value.toFixed(2)}×`;
}

/** CPUs, kernel, Node and the load average at start, in one sentence fragment. */
export function machineLine(machine: MachineInfo): string {
  return `${machine.nproc} CPUs (${machine.cpuModel}), Linux ${machine.kernel}, Node ${machine.node}; load average at start ${machine.loadAvgAtStart.join(' / ')}`;
}

/** The first line of a generated section: when, at which commit, on what machine. */
export function runLine(machine: MachineInfo): string {
  return `Run ${machine.date.slice(0, 16).replace('T', ' ')} UTC${machine.gitCommit ? ` at commit \`${machine.gitCommit}\`` : ''}; ${machineLine(machine)}.`;
}
