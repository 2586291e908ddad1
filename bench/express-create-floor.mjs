// The floor of the stack for creates, measured beside the sandbox in `npm run bench`: Express 5 answering
// POST /2024-09/products with a product kept in a Map, with (VALIDATE=1) or without express-openapi-validator
// checking the request and the answer against openapi.yaml. No auth, store, journal or observers: whatever the
// sandbox's create costs above this, it spends on its own work. With PAGE_FILE, it is the floor of the products
// page too: GET /page answers that file's JSON through res.json (serialized per request, as the bare node:http
// server does), and GET /page-bytes the same JSON serialized once (as a kept answer is replayed), each through one
// route and nothing else.
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';

const products = new Map();
const create = (req, res) => {
  const now = new Date().toISOString();
  const { merchant_id, sku, title } = req.body;
  const product = {
    id: randomUUID(),
    merchant_id,
    sku,
    title,
    identifiers: [],
    main_image_id: null,
    main_image_url: null,
    thumbnail_image_id: null,
    thumbnail_image_url: null,
    created_at: now,
    updated_at: now,
  };
  products.set(product.id, product);
  res.status(201).json({ data: product });
};

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.get('/health', (_req, res) => res.json({ ok: true }));
if (process.env.PAGE_FILE) {
  const page = JSON.parse(readFileSync(process.env.PAGE_FILE, 'utf8'));
  app.get('/page', (_req, res) => res.json(page));
  const bytes = Buffer.from(JSON.stringify(page));
  app.get('/page-bytes', (_req, res) => res.type('application/json').send(bytes));
}
app.use(express.json());
if (process.env.VALIDATE === '1') {
  app.use(
    OpenApiValidator.middleware({
      apiSpec: new URL('../openapi.yaml', import.meta.url).pathname,
      validateApiSpec: false,
      validateRequests: { allErrors: true },
      validateResponses: true,
      validateFormats: true,
      validateSecurity: { handlers: { bearerAuth: () => true } },
      operationHandlers: { basePath: '.', resolver: () => create },
    }),
  );
} else {
  app.post('/2024-09/products', create);
}
app.use((error, _req, res, _next) => res.status(error.status ?? 500).json({ message: error.message }));
const server = app.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
