import { createRuntime, parseEnv } from '@svc/server';
import { createCustomServer } from './custom-server.js';

// The gateway's own environment contract (DESIGN.md): SVC_DATA_DIR (embedded default), provider
// keys, SVC_MASTER_KEY... Only the HTTP server in front of the pipeline is this example's.
const runtime = await createRuntime(parseEnv(process.env));
const port = Number(process.env.PORT ?? 8080);
const server = createCustomServer(runtime).listen(port, () => console.log(`custom server on http://127.0.0.1:${port}/v1/chat/completions`));
const stop = () => server.close(() => void runtime.close().then(() => process.exit(0)));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
