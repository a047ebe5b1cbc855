import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ProcessMemory, readProcessMemory } from './process-memory.js';

/** A child process started by the bench, with the tail of its output for error messages. */
export interface Child {
  name: string;
  pid: number;
  process: ChildProcess;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
  /** Last ~4 KB of stdout+stderr. */
  output(): string;
  /** A gateway whose memory the report shows (see {@link SpawnSpec.gateway}). */
  gateway?: GatewaySpec;
  /** VmRSS once it was ready and left alone for the settle time, KiB (gateways only). */
  idleRssKb?: number;
  /** `performance.now()` when it was spawned. */
  startedAt: number;
}

/** A gateway process the report lists with its idle and peak RSS. */
export interface GatewaySpec {
  /** What it is, in words (`svc`, `svc (answer-cache part)`, `floor`, `portkey`...). */
  label: string;
  /** True when it runs what `pnpm start` runs (svc's shipped defaults); the floor and Portkey are false. */
  shippedDefaults: boolean;
  /** True when it opened a data directory filled before it started (not a new install's). */
  seeded?: boolean;
}

/** How to start a child. */
export interface SpawnSpec {
  name: string;
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Pin to these CPUs with `taskset -c` (taskset execs, so the pid is the command's). */
  cpus?: string | undefined;
  /** Set for a gateway: its idle RSS is read once ready ({@link ChildSet.settled}), its peak when it stops. */
  gateway?: GatewaySpec;
}

const TAIL_BYTES = 4096;

/**
 * Owns every child the bench starts and guarantees they are stopped: `stopAll()` sends SIGTERM,
 * then SIGKILL after a grace period; a process `exit` hook SIGKILLs anything still alive.
 */
export class ChildSet {
  readonly #children = new Set<Child>();
  readonly #memory: ProcessMemory[] = [];
  readonly #settleMs: number;
  readonly #onExit = (): void => {
    for (const child of this.#children) child.process.kill('SIGKILL');
  };

  /** `settleMs`: how long a ready gateway is left alone before its idle RSS is read. */
  constructor(options: { settleMs?: number } = {}) {
    this.#settleMs = options.settleMs ?? 0;
    process.on('exit', this.#onExit);
  }

  /**
   * A gateway just answered its readiness probe: wait the settle time with nothing sent, then read
   * its VmRSS as its idle RSS. Does nothing for other children.
   */
  async settled(child: Child): Promise<void> {
    if (!child.gateway) return;
    if (this.#settleMs > 0) await sleep(this.#settleMs);
    child.idleRssKb = readProcessMemory(child.pid)?.rssKb;
  }

  /**
   * Idle and peak RSS of every gateway so far: those stopped (peak read just before the stop) and
   * those still running (peak read now), in start order.
   */
  gatewayMemory(): ProcessMemory[] {
    const running = [...this.#children].filter((c) => c.gateway).map((c) => memoryOf(c));
    return [...this.#memory, ...running.filter((m): m is ProcessMemory => m !== undefined)].sort((a, b) => a.startedAt - b.startedAt);
  }

  /** Start a child; throws if the command cannot be spawned. */
  async spawn(spec: SpawnSpec): Promise<Child> {
    const [command, args] = spec.cpus
      ? ['taskset', ['-c', spec.cpus, spec.command, ...spec.args]]
      : [spec.command, [...spec.args]];
    const proc = spawn(command, args, {
      env: spec.env ?? process.env,
      cwd: spec.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tail = '';
    const keep = (chunk: Buffer): void => {
      tail = (tail + chunk.toString('utf8')).slice(-TAIL_BYTES);
    };
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
    await new Promise<void>((resolve, reject) => {
      proc.once('spawn', resolve);
      proc.once('error', reject);
    });
    const exited = new Promise<number | string>((resolve) => {
      proc.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    });
    const child: Child = {
      name: spec.name,
      pid: proc.pid as number,
      process: proc,
      exited,
      output: () => tail,
      startedAt: performance.now(),
      ...(spec.gateway ? { gateway: spec.gateway } : {}),
    };
    this.#children.add(child);
    void exited.then(() => this.#children.delete(child));
    return child;
  }

  /** Stop one child: SIGTERM, then SIGKILL after `graceMs`. */
  async stop(child: Child, graceMs = 3000): Promise<void> {
    if (child.process.exitCode !== null || child.process.signalCode !== null) return;
    const memory = memoryOf(child);
    if (memory) this.#memory.push(memory);
    child.process.kill('SIGTERM');
    const timer = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
    await child.exited;
    clearTimeout(timer);
  }

  /** Stop the child with this pid, if it is one of ours and still running. */
  async stopPid(pid: number): Promise<void> {
    const child = [...this.#children].find((c) => c.pid === pid);
    if (child) await this.stop(child);
  }

  /** Stop every child still running. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#children].map((child) => this.stop(child)));
    process.off('exit', this.#onExit);
  }
}

/** A gateway's memory now (its VmHWM is the peak since it started); undefined for other children or a gone process. */
function memoryOf(child: Child): ProcessMemory | undefined {
  if (!child.gateway || child.idleRssKb === undefined) return undefined;
  const now = readProcessMemory(child.pid);
  if (!now) return undefined;
  return {
    label: child.gateway.label,
    shippedDefaults: child.gateway.shippedDefaults,
    ...(child.gateway.seeded ? { seeded: true } : {}),
    pid: child.pid,
    startedAt: child.startedAt,
    idleRssMb: child.idleRssKb / 1024,
    peakRssMb: now.peakRssKb / 1024,
    lastRssMb: now.rssKb / 1024,
  };
}
