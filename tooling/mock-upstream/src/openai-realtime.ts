import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { JsonAnswer } from './answer.js';
import { answerTokens } from './answer-text.js';
import type { RequestPlan } from './behaviour.js';
import { faultAnswer, invalidRequest, isStatusFault } from './faults.js';

/** The paths of OpenAI's realtime WebSocket (with and without the version prefix). */
export const REALTIME_PATHS: ReadonlySet<string> = new Set(['/v1/realtime', '/realtime']);

/** Audio the mock "speaks" per transcript word: 0.1 s of 24 kHz mono pcm16. */
const AUDIO_BYTES_PER_WORD = 4_800;
/** OpenAI's audio tokens: about 10 per second of input and 20 per second of output. */
const INPUT_AUDIO_BYTES_PER_TOKEN = 4_800;
const OUTPUT_AUDIO_TOKENS_PER_WORD = 2;

interface Session {
  id: string;
  beta: boolean;
  model: string;
  config: Record<string, unknown>;
  /** Bytes of audio appended and not yet committed. */
  buffered: number;
  /** Audio bytes committed over the session, for the next response's usage. */
  committed: number;
  items: number;
  responses: number;
  plan: RequestPlan;
}

export interface RealtimeHandlerOptions {
  /** The plan of one session from its upgrade headers (faults, pacing, answer length), or a message naming a bad header. */
  plan(req: IncomingMessage): RequestPlan | string;
  /** Called for every upgrade on a realtime path, before it is answered. */
  onRequest(req: IncomingMessage, path: string): void;
  /** Schedules on the server's timers (cleared by `close()`). */
  later(fn: () => void, ms: number): void;
  nextId(): string;
}

/**
 * The mock's OpenAI Realtime WebSocket, deterministic: `session.created` on connect,
 * `session.update` -> `session.updated`, `input_audio_buffer.append/commit/clear` (a commit
 * transcribes the user turn as "heard <n> bytes of audio"), `conversation.item.create`, and
 * `response.create` -> `response.created`, audio and transcript deltas (one per word of the
 * canned answer, `tokens` words), the transcript's `.done` and `response.done` with usage
 * (audio in: 1 token per 4,800 bytes appended; out: 2 per word; text: words). Beta clients
 * (`OpenAI-Beta: realtime=v1`) get the beta event names (`response.audio.delta`), others GA
 * names (`response.output_audio.delta`).
 *
 * Faults (`x-mock-fault`, `configure({fault})`, fault keys): a status fault refuses the upgrade
 * with that status and an OpenAI error body, `timeout` never answers it, `drop-mid-stream`
 * cuts the connection (no close frame) after the first audio delta of the first response.
 */
export function createRealtimeHandler(options: RealtimeHandlerOptions): { handle(req: IncomingMessage, socket: Duplex, head: Buffer, path: string, query: string): void; close(): void } {
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    handleProtocols: (protocols) => (protocols.has('realtime') ? 'realtime' : false),
  });
  return {
    handle(req, socket, head, path, query) {
      options.onRequest(req, path);
      const id = options.nextId();
      const plan = options.plan(req);
      const model = new URLSearchParams(query).get('model');
      if (typeof plan === 'string' || !model) {
        refuse(socket, invalidRequest('openai', typeof plan === 'string' ? plan : "Missing required parameter: 'model'.", id));
        return;
      }
      if (plan.fault === 'timeout') return; // held until the client gives up or the mock closes
      if (plan.fault && isStatusFault(plan.fault)) {
        refuse(socket, faultAnswer('openai', plan.fault, id, plan.retryAfterSeconds));
        return;
      }
      const beta = /realtime=v1/i.test(String(req.headers['openai-beta'] ?? ''));
      const accept = () =>
        wss.handleUpgrade(req, socket, head, (ws) => {
          const session: Session = { id: `sess_${id}`, beta, model, config: { model, voice: 'alloy', modalities: ['audio', 'text'] }, buffered: 0, committed: 0, items: 0, responses: 0, plan };
          send(ws, { type: 'session.created', session: { id: session.id, object: 'realtime.session', ...session.config } });
          ws.on('message', (data, isBinary) => onClientEvent(ws, session, isBinary ? undefined : String(data), options));
        });
      if (plan.latencyMs > 0) options.later(accept, plan.latencyMs);
      else accept();
    },
    close: () => wss.close(),
  };
}

function refuse(socket: Duplex, answer: JsonAnswer): void {
  let head = `HTTP/1.1 ${answer.status} Error\r\n`;
  for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined) head += `${name}: ${String(value)}\r\n`;
  socket.end(`${head}content-length: ${Buffer.byteLength(answer.body)}\r\nconnection: close\r\n\r\n${answer.body}`);
}

let eventSeq = 0;
function send(ws: WebSocket, event: Record<string, unknown>): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: event.type, event_id: `event_${++eventSeq}`, ...event }));
}

function error(ws: WebSocket, code: string, message: string): void {
  send(ws, { type: 'error', error: { type: 'invalid_request_error', code, message, param: null } });
}

function onClientEvent(ws: WebSocket, session: Session, text: string | undefined, options: RealtimeHandlerOptions): void {
  let event: Record<string, unknown>;
  try {
    const parsed: unknown = text === undefined ? undefined : JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
    event = parsed as Record<string, unknown>;
  } catch {
    error(ws, 'invalid_json', 'The server event could not be parsed as a JSON object.');
    return;
  }
  switch (event.type) {
    case 'session.update': {
      const update = typeof event.session === 'object' && event.session !== null ? (event.session as Record<string, unknown>) : {};
      session.config = { ...session.config, ...update };
      send(ws, { type: 'session.updated', session: { id: session.id, object: 'realtime.session', ...session.config } });
      return;
    }
    case 'input_audio_buffer.append':
      // base64: 3 bytes per 4 characters.
      session.buffered += typeof event.audio === 'string' ? Math.floor((event.audio.length * 3) / 4) : 0;
      return;
    case 'input_audio_buffer.clear':
      session.buffered = 0;
      send(ws, { type: 'input_audio_buffer.cleared' });
      return;
    case 'input_audio_buffer.commit': {
      const itemId = `item_${session.id}_${++session.items}`;
      const bytes = session.buffered;
      session.committed += bytes;
      session.buffered = 0;
      send(ws, { type: 'input_audio_buffer.committed', item_id: itemId, previous_item_id: null });
      send(ws, { type: 'conversation.item.created', item: { id: itemId, object: 'realtime.item', type: 'message', role: 'user', content: [{ type: 'input_audio' }] } });
      send(ws, { type: 'conversation.item.input_audio_transcription.completed', item_id: itemId, content_index: 0, transcript: `heard ${bytes} bytes of audio` });
      return;
    }
    case 'conversation.item.create':
      send(ws, { type: 'conversation.item.created', item: { id: `item_${session.id}_${++session.items}`, ...(typeof event.item === 'object' ? event.item : {}) } });
      return;
    case 'response.create':
      respond(ws, session, options);
      return;
    default:
      error(ws, 'unknown_event', `The mock does not handle '${String(event.type)}'.`);
  }
}

function respond(ws: WebSocket, session: Session, options: RealtimeHandlerOptions): void {
  const responseId = `resp_${session.id}_${++session.responses}`;
  const words = answerTokens(Math.max(1, session.plan.tokens));
  const audioDelta = session.beta ? 'response.audio.delta' : 'response.output_audio.delta';
  const transcriptDelta = session.beta ? 'response.audio_transcript.delta' : 'response.output_audio_transcript.delta';
  const transcriptDone = session.beta ? 'response.audio_transcript.done' : 'response.output_audio_transcript.done';
  const audio = Buffer.alloc(AUDIO_BYTES_PER_WORD, 1).toString('base64');
  const inputAudioTokens = Math.ceil(session.committed / INPUT_AUDIO_BYTES_PER_TOKEN);
  session.committed = 0;
  const ids = { response_id: responseId, item_id: `item_${responseId}`, output_index: 0, content_index: 0 };
  send(ws, { type: 'response.created', response: { id: responseId, object: 'realtime.response', status: 'in_progress', output: [] } });
  const drop = session.plan.fault === 'drop-mid-stream' && session.responses === 1;
  const gapMs = session.plan.tokensPerSecond > 0 ? 1000 / session.plan.tokensPerSecond : 0;
  let index = 0;
  /** Sends the next event of the response; false once it is complete or the socket is gone. */
  const step = (): boolean => {
    if (ws.readyState !== ws.OPEN) return false;
    if (index < words.length) {
      send(ws, { type: audioDelta, ...ids, delta: audio });
      if (drop) {
        ws.terminate();
        return false;
      }
      send(ws, { type: transcriptDelta, ...ids, delta: words[index] });
      index++;
      return true;
    }
    done(ws, session, ids, words, inputAudioTokens, transcriptDone);
    return false;
  };
  if (gapMs === 0) {
    while (step()) {}
    return;
  }
  const tick = () => {
    if (step()) options.later(tick, gapMs);
  };
  tick();
}

function done(ws: WebSocket, session: Session, ids: { response_id: string; item_id: string }, words: readonly string[], inputAudioTokens: number, transcriptDone: string): void {
  send(ws, { type: transcriptDone, ...ids, transcript: words.join('') });
  const instructions = typeof session.config.instructions === 'string' ? session.config.instructions : '';
  const textIn = 10 + Math.ceil(instructions.length / 4);
  const audioOut = words.length * OUTPUT_AUDIO_TOKENS_PER_WORD;
  send(ws, {
    type: 'response.done',
    response: {
      id: ids.response_id,
      object: 'realtime.response',
      status: 'completed',
      usage: {
        total_tokens: textIn + inputAudioTokens + words.length + audioOut,
        input_tokens: textIn + inputAudioTokens,
        output_tokens: words.length + audioOut,
        input_token_details: { text_tokens: textIn, audio_tokens: inputAudioTokens, cached_tokens: 0, cached_tokens_details: { text_tokens: 0, audio_tokens: 0 } },
        output_token_details: { text_tokens: words.length, audio_tokens: audioOut },
      },
    },
  });
}
