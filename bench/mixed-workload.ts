// The mixed workload of `npm run bench` (issue 33): what a client's test suite sends, rather than one URL again and
// again. Eight different pages of the products list (other page sizes and page numbers), and one create in ten,
// at 32 connections, each connection sending the ten requests in turn. The sandbox, json-server 1.0 (the same
// products, its own pagination and filter on the merchant) and a bare node:http server (an array sliced and
// serialized per request, a create pushed to it) run it in interleaved rounds, each started afresh on a fresh copy
// of its data, so every run begins from the same store.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SequenceStep } from './load-tool.js';
import { freePort, getJson, MERCHANT, OWNER_TOKEN, startProcess, type Running } from './servers.js';

/** Products of the demo merchant in the mixed run's store: enough for every page below to be full. */
export const MIXED_PRODUCTS = 250;

/** The eight pages: [per_page, page]. */
const PAGES: readonly (readonly [number, number])[] = [
  [25, 1],
  [25, 2],
  [25, 3],
  [25, 4],
  [10, 1],
  [10, 7],
  [50, 2],
  [50, 3],
];

/** The create of the mixed run, as `LoadSpec.body` and wrk's Lua: a product with a unique SKU. */
const createBody = {
  body: (n: number, run: string) => JSON.stringify({ merchant_id: MERCHANT, sku: `M-${run}-${n}`, title: `Mixed product ${n}` }),
  luaBody: `'{"merchant_id":"${MERCHANT}","sku":"M-' .. run .. '-' .. n .. '","title":"Mixed product ' .. n .. '"}'`,
};

/** The ten requests of a connection's turn: the eight pages, one create among them, and the first page again. */
function sequence(page: (perPage: number, page: number) => string, createPath: string): SequenceStep[] {
  const reads = PAGES.map(([perPage, n]) => ({ path: page(perPage, n) }));
  return [...reads.slice(0, 5), { path: createPath, ...createBody }, ...reads.slice(5), reads[0]!];
}

/** The sandbox's turn: the merchant's products list, and POST /2024-09/products. */
export const sandboxSequence = (): SequenceStep[] =>
  sequence((perPage, page) => `/2024-09/products?merchant_id=${MERCHANT}&per_page=${perPage}&page=${page}`, '/2024-09/products');

/** json-server 1.0's: its filter and pagination (`_page`, `_per_page`), and POST /products. */
export const jsonServerSequence = (): SequenceStep[] =>
  sequence((perPage, page) => `/products?merchant_id=${MERCHANT}&_page=${page}&_per_page=${perPage}`, '/products');

/** The bare server's: it reads `page` and `per_page` itself. */
export const bareSequence = (): SequenceStep[] => sequence((perPage, page) => `/products?per_page=${perPage}&page=${page}`, '/products');

export const SANDBOX_AUTH = { Authorization: `Bearer ${OWNER_TOKEN}` };

/** The demo merchant's products as the sandbox lists them, every page read: json-server's and the bare server's data. */
export async function merchantProducts(sandbox: Running): Promise<unknown[]> {
  const products: unknown[] = [];
  for (let page = 1; ; page++) {
    const { data } = await getJson<{ data: unknown[] }>(`${sandbox.url}/2024-09/products?merchant_id=${MERCHANT}&per_page=100&page=${page}`, SANDBOX_AUTH);
    products.push(...data);
    if (data.length < 100) return products;
  }
}

/** Writes json-server's db.json and the bare server's products file for the mixed run. */
export function writeMixedData(dir: string, products: unknown[]): { db: string; products: string } {
  const db = join(dir, 'mixed-db.json');
  const file = join(dir, 'mixed-products.json');
  writeFileSync(db, JSON.stringify({ products }, null, 2));
  writeFileSync(file, JSON.stringify(products));
  return { db, products: file };
}

/**
 * A bare node:http server over an array of products: a page is a slice of it, serialized per request in the
 * sandbox's envelope; a create is parsed, given an id and pushed (the floor of the mixed run on this machine).
 */
export async function startBareMixedServer(productsFile: string): Promise<Running> {
  const port = await freePort();
  const source = `
    const http = require('node:http');
    const { randomUUID } = require('node:crypto');
    const products = JSON.parse(require('node:fs').readFileSync(${JSON.stringify(productsFile)}, 'utf8'));
    const send = (res, status, value) => {
      const body = JSON.stringify(value);
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    };
    http.createServer((req, res) => {
      if (req.method === 'POST') {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
          const product = { id: randomUUID(), ...JSON.parse(Buffer.concat(chunks).toString()), created_at: new Date().toISOString() };
          products.push(product);
          send(res, 201, { data: product });
        });
        return;
      }
      const query = new URLSearchParams(req.url.slice(req.url.indexOf('?') + 1));
      const perPage = Number(query.get('per_page') ?? 15);
      const page = Number(query.get('page') ?? 1);
      const data = products.slice((page - 1) * perPage, page * perPage);
      send(res, 200, { data, meta: { current_page: page, per_page: perPage, total: products.length } });
    }).listen(${port}, '127.0.0.1');
    process.on('SIGTERM', () => process.exit(0));`;
  return startProcess({ name: 'bare node:http', args: ['-e', source], port, probe: '/products?per_page=1&page=1' });
}
