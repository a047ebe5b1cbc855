// Test-only helpers: a JSON POST and a frame splitter for asserting SSE wire shapes.

/** POST a JSON body and return the response. */
export function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** One SSE frame: its `event:` name (if any) and raw `data:` payload. */
export interface Frame {
  event: string | undefined;
  data: string;
}

/** Split an SSE body into frames (LF or CRLF separated), keeping event names. */
export function frames(text: string): Frame[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      let event: string | undefined;
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      return { event, data: data.join('\n') };
    });
}

/** Read a JSON body as the wire shape a test expects (the mock's output is what is under test). */
export async function readJson<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** OpenAI, Anthropic and Gemini error bodies in one loose shape. */
export interface ErrorBody {
  type?: string;
  error: { type: string; message: string; code?: string | number | null; param?: string | null; status?: string };
}

/** The fields of an OpenAI chat.completion the tests read. */
export interface ChatCompletion {
  id: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  choices: {
    finish_reason: string;
    message: { content: string | null; tool_calls: { function: { name: string; arguments: string } }[] };
  }[];
}

/** An OpenAI embeddings list; `E` is `number[]` (float) or `string` (base64). */
export interface Embeddings<E> {
  data: { embedding: E }[];
  usage: { prompt_tokens: number };
}

/** The fields of an Anthropic Message the tests read. */
export interface AnthropicMessage {
  stop_reason: string;
  content: unknown[];
}

/** The fields of a Gemini GenerateContentResponse the tests read. */
export interface GeminiResponse {
  candidates: { finishReason?: string; content: { parts: unknown[] } }[];
}
