/** Vertex AI's endpoint for a location: regional hosts, except the `global` location. */
export function vertexBaseUrl(location: string): string {
  return location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${location}-aiplatform.googleapis.com`;
}

/** The publisher serving a model: Claude models are Anthropic's on Vertex, everything else Google's. */
export function vertexPublisher(model: string): 'anthropic' | 'google' {
  return /^claude-/i.test(model) ? 'anthropic' : 'google';
}

/**
 * `{baseUrl}/v1/projects/{project}/locations/{location}/publishers/{publisher}/models/{model}`.
 * The model is one path segment; `@` (Claude version pins, `claude-sonnet-4-5@20250929`) is a
 * legal path character and stays as Google's own clients send it.
 */
export function vertexModelUrl(baseUrl: string, project: string, location: string, model: string): string {
  const segment = encodeURIComponent(model).replace(/%40/g, '@');
  const root = baseUrl.replace(/\/+$/, '');
  return `${root}/v1/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}/publishers/${vertexPublisher(model)}/models/${segment}`;
}
