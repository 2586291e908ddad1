import { resolve } from 'node:path';
import { createApp } from './app.js';
import { createServer } from './server.js';
import { configFromEnv, defaultConfig, type Config } from './config.js';
import { openPersistence } from './store/open-persistence.js';
import { StoreFileError } from './store/persistence.js';
import { openWorld } from './world.js';
import { Worlds } from './worlds.js';

const DEMO_TOKENS = ['demo-owner-token', 'demo-member-token', 'demo-outsider-token', 'demo-rival-token'];

async function main(): Promise<void> {
  const config: Config = { ...defaultConfig, ...configFromEnv() };
  const dataFile = resolve(config.dataFile);
  const persistence = openPersistence(config);
  const world = await openWorld({ id: 'main', persistence, seed: config.seed, reset: config.reset });
  const worlds = new Worlds(world);
  const app = createApp({ worlds, config });

  const server = createServer(app);
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    console.log(`Commerce Operations API sandbox (2024-09) listening on ${url}`);
    console.log(`  docs:   ${url}/docs`);
    console.log(`  health: ${url}/_sandbox/health`);
    console.log(`  store:  ${config.store === 'memory' ? 'in memory' : dataFile} (seed ${config.seed})`);
    console.log(`  demo tokens: ${DEMO_TOKENS.join(', ')}`);
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: flushing the store and shutting down`);
    server.close();
    server.closeAllConnections();
    worlds.close().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error) => {
  if (error instanceof StoreFileError) console.error(`sandbox: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
