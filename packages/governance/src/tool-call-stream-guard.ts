import { type StreamEvent, toolCallBlocked } from '@svc/core';
import type { ToolGovernance } from './tool-governance.js';

interface CallState {
  choice: number;
  index: number;
  name: string;
  arguments: string;
  /** An argument rule applies to this call's tool. */
  inspected: boolean;
  /** Fragments held back until the arguments are complete and checked; undefined once released. */
  held: StreamEvent[] | undefined;
}

/**
 * Inspects tool-call deltas as they assemble. A blocked or (with `enforceRegistry`) unregistered
 * name is refused at the call's first fragment, before anything of it is forwarded. Calls an
 * argument rule applies to are held back until complete (the provider ends the call, the next
 * call of the same choice starts, the choice finishes, or the stream ends), checked whole, then released in order;
 * every other event passes at once. Blocking throws 422 `tool_call_blocked`, which in a stream
 * becomes its error event.
 *
 * ```ts
 * const guard = new ToolCallStreamGuard(governance);
 * for await (const event of upstream) yield* guard.push(event);
 * yield* guard.end();
 * ```
 */
export class ToolCallStreamGuard {
  private readonly calls = new Map<string, CallState>();

  constructor(private readonly governance: ToolGovernance) {}

  /** The events to forward now, in order. Throws when the event completes or names a blocked call. */
  push(event: StreamEvent): StreamEvent[] {
    if (!this.governance.active) return [event];
    if (event.type === 'finish') return [...this.complete(event.choice), event];
    if (event.type === 'tool-call-end') {
      // The call is complete: a held one is checked and released, its end after its fragments.
      const call = this.calls.get(`${event.choice}:${event.index}`);
      if (!call?.held) return [event];
      call.held.push(event);
      return this.release(call);
    }
    if (event.type !== 'tool-call-delta') return [event];

    const key = `${event.choice}:${event.index}`;
    // A new call of a choice means its earlier calls are complete.
    const released = this.calls.has(key) ? [] : this.complete(event.choice);
    let call = this.calls.get(key);
    if (!call) {
      call = { choice: event.choice, index: event.index, name: '', arguments: '', inspected: false, held: undefined };
      this.calls.set(key, call);
    }
    if (event.name && event.name !== call.name) {
      call.name = event.name;
      if (this.governance.nameBlock(call.name)) throw toolCallBlocked(call.name);
      call.inspected = this.governance.inspectsArguments(call.name);
      if (call.inspected) call.held ??= [];
    }
    call.arguments += event.argumentsDelta;
    if (call.held) {
      call.held.push(event);
      return released;
    }
    // A fragment after the call was released (a provider interleaving calls): check what is known.
    if (call.inspected && event.argumentsDelta !== '' && this.governance.argumentsBlocked(call.name, call.arguments)) throw toolCallBlocked(call.name);
    released.push(event);
    return released;
  }

  /** At the end of the stream: checks and releases what is still held. */
  end(): StreamEvent[] {
    const released: StreamEvent[] = [];
    for (const call of this.calls.values()) released.push(...this.release(call));
    return released;
  }

  private complete(choice: number): StreamEvent[] {
    const released: StreamEvent[] = [];
    for (const call of this.calls.values()) if (call.choice === choice) released.push(...this.release(call));
    return released;
  }

  private release(call: CallState): StreamEvent[] {
    const held = call.held;
    if (!held) return [];
    if (this.governance.argumentsBlocked(call.name, call.arguments)) throw toolCallBlocked(call.name);
    call.held = undefined;
    return held;
  }
}

/** Wraps a stream of events with a ToolCallStreamGuard; returns `events` itself when nothing is enforced. */
export function guardToolCallStream(events: AsyncIterable<StreamEvent>, governance: ToolGovernance): AsyncIterable<StreamEvent> {
  if (!governance.active) return events;
  return (async function* guarded() {
    const guard = new ToolCallStreamGuard(governance);
    for await (const event of events) yield* guard.push(event);
    yield* guard.end();
  })();
}
