import type { AssistantMessage, ChatChoice, ChatResult, FinishReason, StreamEvent, ToolCall, Usage } from '@svc/core';

interface Building {
  content: string;
  reasoning: string;
  refusal: string;
  calls: ToolCall[];
  finishReason: FinishReason | undefined;
}

/**
 * Rebuilds the complete answer from a stream's events, so a streamed answer can be stored in the
 * cache once it ended well. `result()` is undefined unless every choice finished.
 */
export class StreamCollector {
  private readonly choices = new Map<number, Building>();
  private id: string | undefined;
  private model: string | undefined;
  private systemFingerprint: string | undefined;
  usage: Usage | undefined;

  constructor(private readonly fallbackModel: string) {}

  private choice(index: number): Building {
    let building = this.choices.get(index);
    if (!building) {
      building = { content: '', reasoning: '', refusal: '', calls: [], finishReason: undefined };
      this.choices.set(index, building);
    }
    return building;
  }

  add(event: StreamEvent): void {
    switch (event.type) {
      case 'text-delta':
        this.choice(event.choice).content += event.text;
        return;
      case 'reasoning-delta':
        this.choice(event.choice).reasoning += event.text;
        return;
      case 'refusal-delta':
        this.choice(event.choice).refusal += event.text;
        return;
      case 'tool-call-delta': {
        const calls = this.choice(event.choice).calls;
        let call = calls[event.index];
        if (!call) {
          call = { id: '', name: '', arguments: '' };
          calls[event.index] = call;
        }
        if (event.id) call.id = event.id;
        if (event.name) call.name = event.name;
        call.arguments += event.argumentsDelta;
        return;
      }
      case 'finish':
        this.choice(event.choice).finishReason = event.finishReason;
        return;
      case 'usage':
        this.usage = event.usage;
        return;
      case 'tool-call-end':
        return;
      case 'meta':
        if (event.id) this.id = event.id;
        if (event.model) this.model = event.model;
        if (event.systemFingerprint) this.systemFingerprint = event.systemFingerprint;
        return;
    }
  }

  /** The answer, or undefined when a choice never finished (a cut stream must not be stored). */
  result(): ChatResult | undefined {
    if (this.choices.size === 0) return undefined;
    const choices: ChatChoice[] = [];
    for (const [index, b] of [...this.choices].sort(([a], [c]) => a - c)) {
      if (b.finishReason === undefined) return undefined;
      const message: AssistantMessage = { role: 'assistant', content: b.content === '' && b.calls.length > 0 ? null : b.content };
      if (b.calls.length > 0) message.toolCalls = b.calls.filter((call) => call !== undefined);
      if (b.refusal) message.refusal = b.refusal;
      if (b.reasoning) message.reasoning = b.reasoning;
      choices.push({ index, message, finishReason: b.finishReason });
    }
    return {
      ...(this.id ? { id: this.id } : {}),
      model: this.model ?? this.fallbackModel,
      ...(this.systemFingerprint ? { systemFingerprint: this.systemFingerprint } : {}),
      choices,
      ...(this.usage ? { usage: this.usage } : {}),
    };
  }
}
