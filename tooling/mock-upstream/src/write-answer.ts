import type { ServerResponse } from 'node:http';
import type { Answer, JsonAnswer, StreamAnswer } from './answer.js';

/** Schedules callbacks and forgets them on close, so `close()` never waits for a pending timer. */
export interface Timers {
  later(fn: () => void, ms: number): void;
}

/** How to deliver one answer. */
export interface Delivery {
  /** Wait before the first byte, ms. */
  latencyMs: number;
  /** Tokens per second; 0 = unpaced. */
  tokensPerSecond: number;
  /** Cut the connection halfway through the body or stream. */
  drop: boolean;
}

function gone(res: ServerResponse): boolean {
  return res.destroyed || res.writableEnded;
}

/** Write an answer after the latency, pacing stream frames and cutting the connection when asked. */
export function writeAnswer(
  res: ServerResponse,
  answer: Answer,
  delivery: Delivery,
  timers: Timers,
): void {
  if (answer.kind === 'json') {
    const generationMs =
      delivery.tokensPerSecond > 0 ? (answer.generatedTokens * 1000) / delivery.tokensPerSecond : 0;
    const wait = delivery.latencyMs + generationMs;
    if (wait > 0) timers.later(() => writeJson(res, answer, delivery.drop), wait);
    else writeJson(res, answer, delivery.drop);
    return;
  }
  if (delivery.latencyMs > 0) timers.later(() => writeStream(res, answer, delivery, timers), delivery.latencyMs);
  else writeStream(res, answer, delivery, timers);
}

function writeJson(res: ServerResponse, answer: JsonAnswer, drop: boolean): void {
  if (gone(res)) return;
  const bytes = Buffer.from(answer.body);
  res.writeHead(answer.status, { ...answer.headers, 'content-length': bytes.length });
  if (!drop) {
    res.end(bytes);
    return;
  }
  res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
}

function writeStream(
  res: ServerResponse,
  answer: StreamAnswer,
  delivery: Delivery,
  timers: Timers,
): void {
  if (gone(res)) return;
  const limit = delivery.drop ? Math.floor(answer.tokens.length / 2) : answer.tokens.length;
  res.writeHead(200, answer.headers);
  if (delivery.tokensPerSecond <= 0) {
    const body = answer.head + answer.tokens.slice(0, limit).join('');
    if (delivery.drop) res.write(body, () => res.destroy());
    else res.end(body + answer.tail);
    return;
  }
  res.write(answer.head);
  const start = performance.now();
  let sent = 0;
  const tick = (): void => {
    if (gone(res)) return;
    // Send every token that is due by now, so pacing stays exact above the 1 ms timer resolution.
    const due = Math.min(limit, Math.floor(((performance.now() - start) * delivery.tokensPerSecond) / 1000) + 1);
    if (due > sent) {
      res.write(answer.tokens.slice(sent, due).join(''));
      sent = due;
    }
    if (sent >= limit) {
      if (delivery.drop) res.destroy();
      else res.end(answer.tail);
      return;
    }
    const nextAt = start + ((sent) * 1000) / delivery.tokensPerSecond;
    timers.later(tick, Math.max(0, nextAt - performance.now()));
  };
  tick();
}
