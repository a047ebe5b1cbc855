import { runCli } from './cli-run.js';

runCli(process.argv.slice(2), process.env, { out: (line) => console.log(line), err: (line) => console.error(line) }).then((code) => process.exit(code));
