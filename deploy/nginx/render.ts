// Prints the nginx configuration for the replicas named on the command line:
//   node --import tsx deploy/nginx/render.ts --listen 80 --user nginx r1=sandbox-r1:4010 r2=sandbox-r2:4010 > deploy/nginx/sandbox.conf
import { parseArgs } from 'node:util';
import { nginxConfig, type Replica } from './nginx-config.js';

const { values, positionals } = parseArgs({ options: { listen: { type: 'string', default: '80' }, user: { type: 'string' } }, allowPositionals: true });
const replicas: Replica[] = positionals.map((arg) => {
  const [id, address] = arg.split('=');
  if (!id || !address) throw new Error(`expected <id>=<host:port>, got '${arg}'`);
  return { id, address };
});
process.stdout.write(nginxConfig({ replicas, listen: values.listen, user: values.user }));
