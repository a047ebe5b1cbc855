/** How one line of a native batch was answered: the route's status, its JSON body and request id. */
export interface LineAnswer {
  status: number;
  body: unknown;
  requestId: string;
}

/** Answers one line as its interactive route would (`/v1/chat/completions`, `/v1/embeddings`, `/v1/messages`). */
export type AnswerLine = (url: string, body: Record<string, unknown>) => LineAnswer;

/** A call of the batch API as the mock reads it: who calls (the key: batches belong to the key that created them), what and with which body. */
export interface BatchCall {
  method: string;
  path: string;
  raw: Buffer;
  owner: string;
  query?: URLSearchParams;
}

/** One request of a native batch. */
export interface BatchRequest {
  customId: string;
  url: string;
  body: Record<string, unknown>;
}

/**
 * A native batch's progress, shared by the OpenAI and Anthropic shapes: every retrieve runs an
 * equal share of the lines (`polls` retrieves end it); a cancel stops it at the next retrieve,
 * the lines not run left without an answer.
 */
export class BatchRun {
  readonly answers: (LineAnswer | undefined)[];
  readonly createdAt = Math.floor(Date.now() / 1000);
  state: 'running' | 'cancelling' | 'ended' = 'running';
  cancelled = false;
  endedAt: number | undefined;
  cancelledAt: number | undefined;
  private polls = 0;

  constructor(
    readonly id: string,
    readonly requests: readonly BatchRequest[],
    readonly owner: string,
  ) {
    this.answers = requests.map(() => undefined);
  }

  get started(): boolean {
    return this.polls > 0;
  }

  /** One retrieve: runs the next share of lines (or ends a cancelled batch). */
  advance(polls: number, answer: AnswerLine): void {
    if (this.state === 'ended') return;
    if (this.state === 'running') {
      this.polls++;
      const upTo = Math.min(this.requests.length, Math.ceil((this.requests.length * this.polls) / Math.max(1, polls)));
      for (let index = 0; index < upTo; index++) {
        const request = this.requests[index]!;
        this.answers[index] ??= answer(request.url, request.body);
      }
      if (upTo < this.requests.length) return;
    }
    this.state = 'ended';
    this.endedAt = Math.floor(Date.now() / 1000);
  }

  cancel(): void {
    if (this.state !== 'running') return;
    this.state = 'cancelling';
    this.cancelled = true;
    this.cancelledAt = Math.floor(Date.now() / 1000);
  }

  /** Lines answered so far, by whether they succeeded. */
  counts(): { ran: number; ok: number } {
    let ran = 0;
    let ok = 0;
    for (const answer of this.answers) {
      if (!answer) continue;
      ran++;
      if (answer.status < 300) ok++;
    }
    return { ran, ok };
  }
}
