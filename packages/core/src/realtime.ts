/**
 * Tokens a realtime (speech-to-speech) provider reported for a session, summed over its
 * responses. Cached counts are part of the input counts (OpenAI reports them so).
 */
export interface RealtimeUsage {
  textInputTokens: number;
  cachedTextInputTokens: number;
  audioInputTokens: number;
  cachedAudioInputTokens: number;
  textOutputTokens: number;
  audioOutputTokens: number;
}

/** One turn of a realtime conversation, as transcribed by the provider. */
export interface RealtimeTurn {
  role: 'user' | 'assistant';
  text: string;
}
