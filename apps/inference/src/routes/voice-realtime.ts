import { requireScope } from '@svc/auth';
import { GatewayError } from '@svc/core';
import type { Hono } from 'hono';
import type { AppEnv } from '../env.js';
import { REALTIME_PATHS } from '../realtime/upgrade-request.js';

/**
 * `GET /v1/voice/realtime` without a WebSocket upgrade (or on a server that does not route its
 * `upgrade` events to `createRealtimeGateway`): 426 naming what is needed, never a silent 404.
 */
export function registerVoiceRealtime(app: Hono<AppEnv>): void {
  for (const path of REALTIME_PATHS) {
    app.get(path, (c) => {
      requireScope(c.get('caller'), 'inference:audio');
      throw new GatewayError({
        status: 426,
        type: 'invalid_request_error',
        code: 'websocket_upgrade_required',
        message: `${path} is a WebSocket endpoint: connect with a WebSocket client (the OpenAI Realtime protocol), e.g. wss://<host>${path}?model=gpt-realtime.`,
        headers: { upgrade: 'websocket' },
      });
    });
  }
}
