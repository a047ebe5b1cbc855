/** The file formats of generated images: DALL·E answers PNG; GPT image models PNG, JPEG or WebP. */
export type ImageOutputFormat = 'png' | 'jpeg' | 'webp';

/**
 * An image-generation call as a provider receives it: the upstream model resolved and every
 * option already checked against that model (the protocol layer does it). The adapter always
 * asks for base64 so the gateway holds the bytes; how the client gets them is not its concern.
 */
export interface ImageGenerationRequest {
  /** The provider's own model name (catalog `upstreamId`): `dall-e-3`, `dall-e-2`, `gpt-image-1`. */
  model: string;
  prompt: string;
  /** Images to generate, 1..10 (DALL·E 3: 1). */
  n: number;
  /** `<width>x<height>` (or `auto` for GPT image models); absent: the model's default. */
  size?: string;
  /** `standard` / `hd` (DALL·E 3), `low` / `medium` / `high` / `auto` (GPT image models). */
  quality?: string;
  /** DALL·E 3 only. */
  style?: 'vivid' | 'natural';
  /** End-user id, forwarded. */
  user?: string;
  /** GPT image models only: the file format (default PNG). */
  outputFormat?: ImageOutputFormat;
  /** GPT image models only. */
  background?: 'transparent' | 'opaque' | 'auto';
  /** GPT image models only: the upstream's content-moderation level. */
  moderation?: 'low' | 'auto';
  /** GPT image models only, JPEG and WebP: 0..100. */
  outputCompression?: number;
}

/** One generated image, as base64 of its file bytes. */
export interface GeneratedImage {
  b64Json: string;
  /** The prompt the model actually drew (DALL·E 3 rewrites prompts). */
  revisedPrompt?: string;
}

export interface ImageGenerationResult {
  /** Unix seconds, as the upstream stamped the generation. */
  created: number;
  /** In the upstream's order; usually `n` of them. */
  images: GeneratedImage[];
  /** Tokens the upstream billed (GPT image models); absent for DALL·E, which bills per image. */
  usage?: ImageUsage;
}

export interface ImageUsage {
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`: the prompt's text tokens and image tokens (edits), when reported. */
  textTokens?: number;
  imageTokens?: number;
}
