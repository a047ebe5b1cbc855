import { type ChildProcess, spawn } from 'node:child_process';

/** A child process started by the bench, with the tail of its output for error messages. */
export interface Child {
  name: string;
  pid: number;
  process: ChildProcess;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
  /** Last ~4 KB of stdout+stderr. */
  output(): string;
}

/** How to start a child. */
export interface SpawnSpec {
  name: string;
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Pin to these CPUs with `taskset -c` (taskset execs, so the pid is the command's). */
  cpus?: string;
}

const TAIL_BYTES = 4096;

/**
 * Owns every child the bench starts and guarantees they are stopped: `stopAll()` sends SIGTERM,
 * then SIGKILL after a grace period; a process `exit` hook SIGKILLs anything still alive.
 */
export class ChildSet {
  readonly #children = new Set<Child>();
  readonly #onExit = (): void => {
    for (const child of this.#children) child.process.kill('SIGKILL');
  };

  constructor() {
    process.on('exit', this.#onExit);
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
    };
    this.#children.add(child);
    void exited.then(() => this.#children.delete(child));
    return child;
  }

  /** Stop one child: SIGTERM, then SIGKILL after `graceMs`. */
  async stop(child: Child, graceMs = 3000): Promise<void> {
    if (child.process.exitCode !== null || child.process.signalCode !== null) return;
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
