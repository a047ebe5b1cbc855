/** What the transcription endpoints answer in: JSON (`text`), plain text, subtitles, or JSON with segments and `duration`. */
export type TranscriptionFormat = 'json' | 'text' | 'srt' | 'verbose_json' | 'vtt';

/** A speech-to-text call: transcription in the spoken language, or translation to English. */
export interface TranscriptionRequest {
  task: 'transcription' | 'translation';
  /** The provider's own model name (catalog `upstreamId`). */
  model: string;
  /** The audio file's bytes. */
  file: Uint8Array;
  /** The file's name; its extension tells the upstream the audio format. */
  filename: string;
  /** The file's content type, when the client sent one. */
  fileType?: string;
  /** ISO 639-1; transcriptions only. */
  language?: string;
  prompt?: string;
  /** Default `json`. */
  responseFormat?: TranscriptionFormat;
  temperature?: number;
}

export interface TranscriptionResult {
  /** The upstream's content type (`application/json`, `text/plain`, ...). */
  contentType: string;
  /** The upstream's body, passed through unchanged. */
  body: string;
  /** Seconds of audio, when the upstream said (`verbose_json`). */
  durationSeconds?: number;
}

/** Speech to text for the voice endpoints: the transcript in one shape, whatever the provider's. */
export interface RecognitionRequest {
  /** The provider's own model name (catalog `upstreamId`). */
  model: string;
  /** The audio file's bytes. */
  file: Uint8Array;
  /** The file's name; its extension may tell the upstream the audio format. */
  filename: string;
  /** The file's content type, when the client sent one. */
  fileType?: string;
  /** ISO 639-1 of the speech; absent: the provider detects it (or assumes its default). */
  language?: string;
}

/** A transcript in the gateway's own shape. */
export interface Recognition {
  text: string;
  /** ISO 639-1 of the speech, as detected (or as asked) when the provider says; else undefined. */
  language?: string;
  /** Seconds of audio, when the provider reports it (the basis of the price). */
  durationSeconds?: number;
}
