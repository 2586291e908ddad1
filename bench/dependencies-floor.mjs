// The floor of the start-up that this stack imposes, measured beside the sandbox's starts in `npm run bench`
// (bench/startup.ts): a process that loads the packages named on its command line (every package the built server
// imports, read from dist/src by bench/startup.ts; or express and its validator alone), with Node's compile cache on
// as the bin has it, and then answers 200 from node:http. Nothing of the sandbox runs: no contract, no validator preparation, no seeding. What a start
// costs above this, the sandbox spends on its own work; a target below it cannot be met with these libraries.
import module from 'node:module';
import http from 'node:http';

module.enableCompileCache?.();

await Promise.all(process.argv.slice(2).map((specifier) => import(specifier)));

http
  .createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end('{"data":{}}');
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
