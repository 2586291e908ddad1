// A reference row of the start-up section of `npm run bench` (bench/startup.ts): a process that loads the packages
// named on its command line from node_modules (every package the built server uses, those the build bundles included,
// as bench/startup.ts lists them; or express and its validator alone), with Node's compile cache on as the bin has
// it, and then answers 200 from node:http. Nothing of the sandbox runs: no contract, no validator, no seeding. It shows
// what these libraries cost as their packages ship them; the built server, which loads most of them bundled, may
// start below it (docs/benchmark.md).
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
