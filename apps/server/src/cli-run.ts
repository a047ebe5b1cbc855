import { parseArgs } from 'node:util';
import { isGatewayError } from '@svc/core';
import { DataDirError, StoreError } from '@svc/db';
import { ConfigError, type Env, parseEnv } from './runtime/env.js';
import { adminApiStore } from './cli-admin-store.js';
import { CliError, usage } from './cli-args.js';
import { type CliIo, type Values, commands, options } from './cli-commands.js';
import { restoreCommand } from './cli-restore.js';
import { type CliStore, openDirectStore } from './cli-store.js';
import { awaitControlNote } from './control-file.js';

export type { CliIo } from './cli-commands.js';

/** How long the CLI waits for a gateway that holds the directory to say where it listens (it says so once it listens). */
const NOTE_WAIT_MS = 5_000;

/** The refusal of a directory that another live process holds, if `error` is one. */
function heldElsewhere(error: unknown): DataDirError | undefined {
  const cause = error instanceof ConfigError ? error.cause : undefined;
  if (!(cause instanceof DataDirError) || cause.reason !== 'held' || !cause.holder || cause.holder.pid === process.pid) return undefined;
  return cause;
}

/**
 * The admin API of the gateway that holds the embedded directory, called with SVC_MASTER_KEY,
 * or a CliError (one line) saying why the command cannot go there.
 */
async function forwardTo(held: DataDirError, env: Env, refusal: Error): Promise<CliStore> {
  const holder = held.holder!;
  const running = `SVC_DATA_DIR: ${held.dataDir} is open in a running gateway (pid ${holder.pid} since ${holder.since})`;
  const note = await awaitControlNote(held.dataDir, holder.pid, NOTE_WAIT_MS);
  if (!note) throw refusal;
  if (note.control_url === null) {
    throw new CliError(`${running} that serves no admin API (it runs the inference role only); stop it first, or use the admin API of its control plane`);
  }
  if (!note.master_key) {
    throw new CliError(`${running} without SVC_MASTER_KEY, so its admin API at ${note.control_url} has no key the CLI can use; restart it with SVC_MASTER_KEY set and run the CLI with the same, or stop it first`);
  }
  if (!env.SVC_MASTER_KEY) {
    throw new CliError(`${running}; the CLI forwards commands to its admin API at ${note.control_url} and needs SVC_MASTER_KEY, the master key that gateway runs with`);
  }
  return adminApiStore(note.control_url, env.SVC_MASTER_KEY);
}

/** The stores the environment names; the admin API of the gateway holding them when one holds the embedded directory. */
async function openStore(env: Env, io: CliIo): Promise<CliStore> {
  try {
    return await openDirectStore(env, (line) => io.err(`svc: ${line}`));
  } catch (error) {
    const held = heldElsewhere(error);
    if (!held) throw error;
    return forwardTo(held, env, error as Error);
  }
}

/** Commands of one word (`svc migrate`, `svc backup FILE`); the others are `group action`. */
const singleWord = new Set(['migrate', 'backup']);

async function run(command: string[], values: Values, store: CliStore, io: CliIo): Promise<void> {
  const [group = '', action, argument] = command;
  const single = singleWord.has(group);
  const key = single ? group : `${group} ${action}`;
  const handler = Object.hasOwn(commands, key) ? commands[key] : undefined;
  if (!handler) throw new CliError(`unknown command '${command.join(' ')}'\n\n${usage}`);
  await handler({ argument: single ? action : argument, values, store, io });
}

/** Runs one CLI command; resolves to the process exit code. */
export async function runCli(args: readonly string[], environment: Record<string, string | undefined>, io: CliIo): Promise<number> {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    io.err(`svc: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (parsed.values.help || parsed.positionals.length === 0) {
    io.out(usage);
    return parsed.values.help ? 0 : 2;
  }
  let store: CliStore | undefined;
  try {
    const env = parseEnv(environment);
    if (parsed.positionals[0] === 'restore') {
      await restoreCommand(parsed.positionals[1], env, io);
      return 0;
    }
    store = await openStore(env, io);
    await run(parsed.positionals, parsed.values, store, io);
    return 0;
  } catch (error) {
    if (error instanceof CliError || error instanceof ConfigError || error instanceof StoreError || isGatewayError(error)) {
      io.err(`svc: ${error.message}`);
      return 2;
    }
    io.err(`svc: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await store?.close();
  }
}
