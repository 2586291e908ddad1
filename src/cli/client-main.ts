// The bin's process for `commerce-operations-sandbox coverage|export|wait ...` (client.ts): the bin starts this file
// instead of the server's main, so none of the server is loaded. The exit code is set, never forced with
// process.exit, so stdout (a pipe to run.json, say) is written out in full first.
import { outliveClosedStdout } from './closed-stdout.js';
import { runClient } from './client.js';

outliveClosedStdout();

runClient(process.argv.slice(2), {
  env: process.env,
  stdout: (chunk) => process.stdout.write(chunk),
  stderr: (text) => process.stderr.write(text),
}).then((code) => {
  process.exitCode = code;
});
