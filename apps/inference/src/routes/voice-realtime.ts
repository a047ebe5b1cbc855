import { GatewayError } from '@svc/core';
import { type RouteDescriptor, bearer, defineRoute } from '@svc/openapi';
import { MAX_CONVERSATION_ID_CHARS } from '@svc/protocol';
import * as v from 'valibot';
import type { RouteAdder } from '@svc/http-kit';
import type { AppEnv } from '../env.js';
import { REALTIME_PATH, REALTIME_SCOPE, SDK_REALTIME_PATH } from '../realtime/upgrade-request.js';
import { voiceAnswerHeaders } from './voice-answer.js';

/** The upgrade's query, as the realtime stage reads and checks it (400 naming the parameter). */
const realtimeQuery = v.object({
  model: v.optional(v.pipe(v.string(), v.description('A realtime model (`gpt-realtime`, `openai/gpt-realtime-mini`, ...); absent: the catalog\'s first.'))),
  conversation_id: v.optional(
    v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(MAX_CONVERSATION_ID_CHARS),
      v.description('The voice session whose turns full mode keeps (or the `x-svc-conversation-id` header).'),
    ),
  ),
});

const upgradeDescription =
  'A WebSocket speaking the OpenAI Realtime protocol, relayed to the provider and metered per started minute. Upgrade this GET (`Connection: Upgrade`, `Upgrade: websocket`); the key may also come as the browser subprotocol `openai-insecure-api-key.<key>`, and `OpenAI-Beta: realtime=v1` (or the subprotocol `openai-beta.realtime-v1`) selects the beta event names. The session is admitted and the upstream opened before the handshake completes, so every refusal is an ordinary HTTP error. The upgrade is served by the realtime gateway on the server\'s `upgrade` event; a plain GET answers 426.';

function realtimeRoute(path: string, operationId: string, summary: string): RouteDescriptor {
  return defineRoute({
    method: 'get',
    path,
    operationId,
    summary,
    description: upgradeDescription,
    tags: ['Voice'],
    auth: bearer(REALTIME_SCOPE),
    query: realtimeQuery,
    responses: {
      101: {
        description: 'Switching Protocols: the realtime WebSocket is open; close codes and events are documented in docs/api.md.',
        headers: { ...voiceAnswerHeaders, 'x-svc-conversation-id': 'The session, in full mode or when one was named.' },
      },
    },
    errors: [400, 402, 426, 429, 500, 502, 503],
  });
}

export const realtimeRoutes: readonly RouteDescriptor[] = [
  realtimeRoute(REALTIME_PATH, 'createRealtimeSession', 'Open a realtime voice session (WebSocket)'),
  // Where the openai SDK connects with baseURL {base}/v1.
  realtimeRoute(SDK_REALTIME_PATH, 'createRealtimeSessionAtSdkPath', 'Open a realtime voice session at the openai SDK\'s path (WebSocket)'),
];

/**
 * `GET /v1/voice/realtime` and `/v1/realtime` without a WebSocket upgrade (or on a server that
 * does not route its `upgrade` events to `createRealtimeGateway`): after the declared auth,
 * 426 naming what is needed, never a silent 404.
 */
export function registerVoiceRealtime(routes: RouteAdder<AppEnv>): void {
  for (const route of realtimeRoutes) {
    routes.add(route, () => {
      throw new GatewayError({
        status: 426,
        type: 'invalid_request_error',
        code: 'websocket_upgrade_required',
        message: `${route.path} is a WebSocket endpoint: connect with a WebSocket client (the OpenAI Realtime protocol), e.g. wss://<host>${route.path}?model=gpt-realtime.`,
        headers: { upgrade: 'websocket' },
      });
    });
  }
}
