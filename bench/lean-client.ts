// The client of the workspace latency figures: node:http with a keep-alive agent holding one socket, so every
// request after the first reuses one connection and no sample pays a TCP handshake. It does less per request than
// fetch (undici's streams and promises), whose own jitter would be charged to the server.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

/** One answer: its status, body and the time from sending to the last byte, in ms. */
export interface Timed {
  status: number;
  body: string;
  ms: number;
}

/** One connection to `base` (http://host:port); close() when done. */
export class LeanClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly url: URL;

  constructor(base: string) {
    this.url = new URL(base);
  }

  send(method: 'GET' | 'POST', path: string): Promise<Timed> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = request({ host: this.url.hostname, port: this.url.port, path, method, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), ms: performance.now() - started }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
