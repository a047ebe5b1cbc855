import { join } from 'node:path';
import type { Child, ChildSet } from './children.js';
import { lastLines } from './wait-ready.js';

/** The mock upstream running as a child process. */
export interface MockChild {
  /** Base URL without `/v1`. */
  url: string;
  child: Child;
}

/**
 * Start `tooling/mock-upstream/dist/main.js --port 0` as a child (so its CPU is not charged to
 * the load generator or the gateway) and read its URL from the `listening on` line.
 */
export async function startMockChild(
  children: ChildSet,
  options: { root: string; tokens: number; cpus?: string },
): Promise<MockChild> {
  const script = join(options.root, 'tooling/mock-upstream/dist/main.js');
  const child = await children.spawn({
    name: 'mock-upstream',
    command: process.execPath,
    args: [script, '--port', '0', '--tokens', String(options.tokens)],
    cpus: options.cpus,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`mock-upstream did not start in 10 s: ${lastLines(child.output())}`)),
      10_000,
    );
    child.process.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void child.exited.then((code) => {
      clearTimeout(timer);
      reject(
        new Error(
          `mock-upstream exited (${code}); is it built? (pnpm bench builds it) ${lastLines(child.output())}`,
        ),
      );
    });
  });
  return { url, child };
}
