import { jsonAnswer, type Dialect, type JsonAnswer } from './answer.js';
import type { MockFault } from './behaviour.js';

type StatusFault = Exclude<MockFault, 'timeout' | 'drop-mid-stream'>;

interface ErrorSpec {
  status: number;
  openai: { type: string; code: string | null; message: string; param?: string };
  anthropic: { type: string; message: string };
  gemini: { status: string; message: string };
  /** Deepgram `{err_code, err_msg}`; ElevenLabs `{detail: {status, message}}`, with its own HTTP status where it differs (a spent quota is a 401). */
  deepgram: { code: string; message: string };
  elevenlabs: { status: string; message: string; httpStatus?: number };
}

const SPECS: Record<StatusFault, ErrorSpec> = {
  '400': {
    status: 400,
    openai: {
      type: 'invalid_request_error',
      code: 'invalid_value',
      param: 'tools[0].function.parameters',
      message: "Invalid schema for function 'get_weather': 'object' is not valid under any of the given schemas.",
    },
    anthropic: { type: 'invalid_request_error', message: 'tools.0.input_schema: JSON schema is invalid' },
    gemini: { status: 'INVALID_ARGUMENT', message: 'Invalid JSON payload received. Unknown name "parameters".' },
    deepgram: { code: 'Bad Request', message: 'Bad Request: failed to process audio: corrupt or unsupported data' },
    elevenlabs: { status: 'invalid_request', message: 'The request is invalid.' },
  },
  '402': {
    status: 402,
    openai: {
      type: 'insufficient_quota',
      code: 'insufficient_quota',
      message: 'You exceeded your current quota, please check your plan and billing details.',
    },
    anthropic: { type: 'billing_error', message: 'Your credit balance is too low to access the API.' },
    gemini: { status: 'FAILED_PRECONDITION', message: 'Billing is not enabled for this project.' },
    deepgram: { code: 'ASR_PAYMENT_REQUIRED', message: 'Project does not have enough credits for an ASR request and does not have an overage agreement.' },
    elevenlabs: { status: 'quota_exceeded', message: 'This request exceeds your quota of 10000. You have 12 credits remaining, while 38 credits are required for this request.', httpStatus: 401 },
  },
  '429': {
    status: 429,
    openai: {
      type: 'requests',
      code: 'rate_limit_exceeded',
      message:
        'Rate limit reached for gpt-4o-mini in organization org-mock on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 120ms.',
    },
    anthropic: {
      type: 'rate_limit_error',
      message:
        'This request would exceed the rate limit for your organization of 50 requests per minute.',
    },
    gemini: {
      status: 'RESOURCE_EXHAUSTED',
      message: 'Resource has been exhausted (e.g. check quota).',
    },
    deepgram: { code: 'TOO_MANY_REQUESTS', message: 'Too many requests. Please try again later.' },
    elevenlabs: { status: 'too_many_concurrent_requests', message: 'Too many concurrent requests for your subscription. Please try again later.' },
  },
  '500': {
    status: 500,
    openai: {
      type: 'server_error',
      code: null,
      message: 'The server had an error while processing your request. Sorry about that!',
    },
    anthropic: { type: 'api_error', message: 'Internal server error' },
    gemini: { status: 'INTERNAL', message: 'An internal error has occurred.' },
    deepgram: { code: 'INTERNAL_SERVER_ERROR', message: 'An internal server error occurred.' },
    elevenlabs: { status: 'internal_error', message: 'Internal server error.' },
  },
  '503': {
    status: 503,
    openai: {
      type: 'server_error',
      code: null,
      message: 'The engine is currently overloaded, please try again later.',
    },
    anthropic: { type: 'api_error', message: 'Service unavailable' },
    gemini: { status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
    deepgram: { code: 'SERVICE_UNAVAILABLE', message: 'The service is temporarily unavailable.' },
    elevenlabs: { status: 'system_busy', message: 'Our services are experiencing high levels of traffic.' },
  },
  '529': {
    status: 529,
    openai: { type: 'server_error', code: null, message: 'The server is overloaded.' },
    anthropic: { type: 'overloaded_error', message: 'Overloaded' },
    gemini: { status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
    deepgram: { code: 'SERVICE_UNAVAILABLE', message: 'The service is overloaded.' },
    elevenlabs: { status: 'system_busy', message: 'Our services are experiencing high levels of traffic.' },
  },
  'context-length': {
    status: 400,
    openai: {
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
      param: 'messages',
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
    },
    anthropic: {
      type: 'invalid_request_error',
      message: 'prompt is too long: 210000 tokens > 200000 maximum',
    },
    gemini: {
      status: 'INVALID_ARGUMENT',
      message:
        'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
    },
    deepgram: { code: 'PAYLOAD_TOO_LARGE', message: 'The audio is too long.' },
    elevenlabs: { status: 'text_too_long', message: 'The text exceeds the maximum length for this model.' },
  },
};

/** True for faults answered with an error status (everything but `timeout` and `drop-mid-stream`). */
export function isStatusFault(fault: MockFault): fault is StatusFault {
  return fault !== 'timeout' && fault !== 'drop-mid-stream';
}

/**
 * The provider-realistic error answer for a status fault: OpenAI `{error:{message,type,param,code}}`,
 * Anthropic `{type:"error",error:{type,message},request_id}`, Gemini `{error:{code,message,status}}`.
 * A 429 carries `retry-after` (seconds) and, for Anthropic, `retry-after-ms` too.
 */
export function faultAnswer(
  dialect: Dialect,
  fault: StatusFault,
  requestId: string,
  retryAfterSeconds: number,
): JsonAnswer {
  const spec = SPECS[fault];
  const headers: Record<string, string> = {};
  if (spec.status === 429) headers['retry-after'] = String(retryAfterSeconds);
  return errorAnswer(dialect, spec, requestId, headers);
}

function errorAnswer(
  dialect: Dialect,
  spec: ErrorSpec,
  requestId: string,
  headers: Record<string, string>,
): JsonAnswer {
  if (dialect === 'anthropic') {
    if (headers['retry-after']) headers['retry-after-ms'] = String(Number(headers['retry-after']) * 1000);
    return jsonAnswer(
      spec.status,
      JSON.stringify({ type: 'error', error: spec.anthropic, request_id: `req_${requestId}` }),
      { ...headers, 'request-id': `req_${requestId}` },
    );
  }
  if (dialect === 'gemini') {
    return jsonAnswer(
      spec.status,
      JSON.stringify({ error: { code: spec.status, ...spec.gemini } }),
      headers,
    );
  }
  if (dialect === 'deepgram') {
    const { code, message } = spec.deepgram;
    return jsonAnswer(spec.status, JSON.stringify({ err_code: code, err_msg: message, request_id: requestId }), { ...headers, 'dg-request-id': requestId });
  }
  if (dialect === 'elevenlabs') {
    const { status, message, httpStatus } = spec.elevenlabs;
    return jsonAnswer(httpStatus ?? spec.status, JSON.stringify({ detail: { status, message } }), { ...headers, 'request-id': requestId });
  }
  const { type, code, message, param } = spec.openai;
  return jsonAnswer(
    spec.status,
    JSON.stringify({ error: { message, type, param: param ?? null, code } }),
    { ...headers, 'x-request-id': `req_${requestId}` },
  );
}

/** A 400 in the route's dialect for a request the mock cannot answer (bad JSON, missing field). */
export function invalidRequest(dialect: Dialect, message: string, requestId: string): JsonAnswer {
  return errorAnswer(
    dialect,
    {
      status: 400,
      openai: { type: 'invalid_request_error', code: null, message },
      anthropic: { type: 'invalid_request_error', message },
      gemini: { status: 'INVALID_ARGUMENT', message },
      deepgram: { code: 'Bad Request', message },
      elevenlabs: { status: 'invalid_request', message },
    },
    requestId,
    {},
  );
}

/** A 404 in the route's dialect. */
export function notFound(dialect: Dialect, path: string, requestId: string): JsonAnswer {
  const message = `Unknown route ${path}`;
  return errorAnswer(
    dialect,
    {
      status: 404,
      openai: { type: 'invalid_request_error', code: 'unknown_url', message },
      anthropic: { type: 'not_found_error', message },
      gemini: { status: 'NOT_FOUND', message },
      deepgram: { code: 'NOT_FOUND', message },
      elevenlabs: { status: 'not_found', message },
    },
    requestId,
    {},
  );
}

/** OpenAI's 404 for a model the upstream does not serve (`models` behaviour). */
export function unknownModel(model: string, requestId: string, dialect: Dialect = 'openai'): JsonAnswer {
  const message = `The model \`${model}\` does not exist or you do not have access to it.`;
  return errorAnswer(
    dialect,
    {
      status: 404,
      openai: { type: 'invalid_request_error', code: 'model_not_found', message, param: 'model' },
      anthropic: { type: 'not_found_error', message },
      gemini: { status: 'NOT_FOUND', message },
      deepgram: { code: 'NOT_FOUND', message },
      elevenlabs: { status: 'not_found', message },
    },
    requestId,
    {},
  );
}
