// Prints the nginx configuration for the replicas named on the command line:
//   node --import tsx deploy/nginx/render.ts --listen 80 --user nginx r1=sandbox-r1:4010 r2=sandbox-r2:4010 > deploy/nginx/sandbox.conf
// Per-address limits default to EDGE_LIMITS (deploy/nginx/nginx-config.ts); --connections-per-address,
// --requests-per-second, --request-burst, --create-per-minute, --worker-connections and --header-timeout-seconds
// change them.
import { parseArgs } from 'node:util';
import { EDGE_LIMITS, nginxConfig, type EdgeLimits, type Replica } from './nginx-config.js';

const FLAGS: Record<string, keyof EdgeLimits> = {
  'connections-per-address': 'connectionsPerAddress',
  'requests-per-second': 'requestsPerSecond',
  'request-burst': 'requestBurst',
  'create-per-minute': 'createPerMinute',
  'worker-connections': 'workerConnections',
  'header-timeout-seconds': 'headerTimeoutSeconds',
};

const { values, positionals } = parseArgs({
  options: {
    listen: { type: 'string', default: '80' },
    user: { type: 'string' },
    ...Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, { type: 'string' as const }])),
  },
  allowPositionals: true,
});
const replicas: Replica[] = positionals.map((arg) => {
  const [id, address] = arg.split('=');
  if (!id || !address) throw new Error(`expected <id>=<host:port>, got '${arg}'`);
  return { id, address };
});
const limits: Partial<EdgeLimits> = {};
for (const [flag, key] of Object.entries(FLAGS)) {
  const raw = (values as Record<string, unknown>)[flag];
  if (typeof raw !== 'string') continue;
  if (!/^\d+$/.test(raw)) throw new Error(`--${flag} must be a positive integer (default ${EDGE_LIMITS[key]}), got '${raw}'`);
  limits[key] = Number(raw);
}
process.stdout.write(nginxConfig({ replicas, listen: values.listen, user: values.user, limits }));
