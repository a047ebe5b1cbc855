// Preloaded into the Portkey child (`node --import`) for the streaming runs only.
// Portkey 1.15.2 on Node appends x-portkey-* headers to the upstream fetch Response, whose headers
// are immutable there, so every stream fails with "TypeError: immutable" and a 500
// (Portkey-AI/gateway#1389, #1550). Re-wrapping the response with mutable headers is the smallest
// change that lets it stream; it costs one Response allocation per request, charged to Portkey.
const upstreamFetch = globalThis.fetch;

globalThis.fetch = async (input, init) => {
  const response = await upstreamFetch(input, init);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: new Headers(response.headers),
  });
};
