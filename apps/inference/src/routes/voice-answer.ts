import { answerHeaders } from './answer-headers.js';

/** Headers of every voice answer: the routed ones and the voice intelligence mode (proxy escalates to cache). */
export const voiceAnswerHeaders: Readonly<Record<string, string>> = {
  ...answerHeaders,
  'x-svc-intelligence-mode': 'The voice intelligence mode the request resolved to (`proxy` escalates to `cache`); on errors too.',
};
