// Preload (`node --require`) for the gateway: where one streamed request at a time waits, from the
// sockets' point of view, with no change to the gateway. Per /v1/chat request (from Node's
// `http.server.request.start`): each write the gateway makes (the upstream request; each write to
// the client, tagged `hdr` when it holds the status line, `role`, `CONTENT` once a token is in it,
// with its bytes), each read from the upstream, and each round trip to the encoder thread
// (`enc-send` at the worker's postMessage, `enc-recv` at its answer). The record of a request ends
// at its first write holding a token. TTFT_TRACE_OUT=<file>: the records as JSON at exit.
// TTFT_TRACE_CPU=1: each event also carries the process's CPU since the request started (every
// thread, `process.cpuUsage`, ms), the record ends with a `first-token` event, and the encoder's
// `enc-send`/`enc-recv` carry each thread's CPU so far (ms by tid, `/proc/self/task/<tid>/schedstat`
// read with pread on descriptors opened once: ~2 µs a thread), so a span's CPU can be split
// between the encoder thread, the main thread and the rest.
// Used by ttft-trace.sh; summarised by ttft-trace-spans.mjs.
const net = require('node:net');
const dc = require('node:diagnostics_channel');
const wt = require('node:worker_threads');
const fs = require('node:fs');
const { performance } = require('node:perf_hooks');

const withCpu = process.env.TTFT_TRACE_CPU === '1';
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const descriptors = new Map();
const scratch = Buffer.alloc(128);
const mainTid = String(process.pid);
/** Every thread's CPU so far, ms by tid (the main thread's as `main`). */
function threadsCpu() {
  const out = {};
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      let fd = descriptors.get(tid);
      if (fd === undefined) {
        fd = fs.openSync(`/proc/self/task/${tid}/schedstat`, 'r');
        descriptors.set(tid, fd);
      }
      const n = fs.readSync(fd, scratch, 0, scratch.length, 0);
      out[tid === mainTid ? 'main' : tid] = Number(scratch.toString('latin1', 0, n).split(' ')[0]) / 1e6;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

let current = null;
const done = [];
const mark = (name) => {
  if (!current) return;
  if (!withCpu) current.events.push([name, performance.now() - current.t0]);
  else current.events.push([name, performance.now() - current.t0, cpuMs() - current.cpu0, ...(name.startsWith('enc-') ? [threadsCpu()] : [])]);
};
dc.subscribe('http.server.request.start', ({ request }) => {
  if (request.url.startsWith('/v1/chat')) current = { t0: performance.now(), cpu0: withCpu ? cpuMs() : 0, events: [] };
});
function text(data) {
  if (typeof data === 'string') return data;
  if (data instanceof Uint8Array) return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
  if (Array.isArray(data)) return data.map((d) => text(d.chunk ?? d)).join('');
  return '';
}
const isServer = (socket) => Boolean(socket.server);
const push = net.Socket.prototype.push;
net.Socket.prototype.push = function (chunk, encoding) {
  // The server's sockets are read by the HTTP parser in C++ (no push): these are the upstream's bytes.
  if (chunk && current && !isServer(this)) mark(`up-in:${text(chunk).length}`);
  return push.call(this, chunk, encoding);
};
const writeGeneric = net.Socket.prototype._writeGeneric;
net.Socket.prototype._writeGeneric = function (writev, data, encoding, callback) {
  if (current) {
    const s = text(data);
    if (!isServer(this)) mark('up-out');
    else {
      const token = /"content":"[^"]/.test(s) || /"text":"[^"]/.test(s);
      mark(`srv-out${s.startsWith('HTTP/') ? ':hdr' : ''}${s.includes('"role"') ? ':role' : ''}${token ? ':CONTENT' : ''}:${s.length}`);
      if (token) {
        if (withCpu) mark('first-token');
        done.push(current);
        current = null;
      }
    }
  }
  return writeGeneric.call(this, writev, data, encoding, callback);
};
const post = wt.Worker.prototype.postMessage;
wt.Worker.prototype.postMessage = function (message, transfer) {
  if (message?.texts) mark(`enc-send:${message.texts.length}`);
  return post.call(this, message, transfer);
};
const emit = wt.Worker.prototype.emit;
wt.Worker.prototype.emit = function (event, message, ...rest) {
  if (event === 'message' && message?.type === 'vectors') mark('enc-recv');
  return emit.call(this, event, message, ...rest);
};
process.on('exit', () => {
  if (process.env.TTFT_TRACE_OUT) fs.writeFileSync(process.env.TTFT_TRACE_OUT, JSON.stringify(done.map((r) => r.events)));
});
