import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/document/load-contract.js';
import { mountContract, validatorOptions } from '../../src/pipeline/mount-contract.js';
import { bindingPlans } from '../../src/access/binding-plans.js';
import { handlers } from '../../src/handlers.js';
import { routeBindings } from '../../src/areas/route-bindings.js';
import { defaultConfig } from '../../src/config.js';
import type { Runtime } from '../../src/runtime.js';
import { followPointer } from '../../src/contract/validator/preprocessor-refs.js';
import { applyValidatorPatches } from '../../src/contract/validator/tune-validator.js';
import { validatorModules } from '../../src/contract/validator/validator-module.js';

// src/contract/validator changes how express-openapi-validator 5.6 does its work, never what it decides. These tests
// hold each change to that, on this contract, and fail loudly when an upgrade moves what they rely on.
const { doc } = loadContract();
const require = createRequire(import.meta.url);
const validatorDir = dirname(require.resolve('express-openapi-validator'));

type Preprocessor = {
  preProcess(): { apiDoc: unknown; apiDocRes: unknown };
  ajv: { getSchema(ref: string): { schema: unknown } | undefined };
  resolveSchema(s: unknown): unknown;
};
type PreprocessorClass = { new (apiDoc: unknown, ajvOptions: unknown, responseOptions: unknown): Preprocessor; prototype: Preprocessor };

function localRefs(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) localRefs(n, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.add(value);
      else localRefs(value, out);
    }
  }
  return out;
}

// The Ajv options the sandbox's own validator gives its start-up pass (mounting it applies the tuning too).
const runtime = { contract: doc, config: defaultConfig } as Runtime;
mountContract(runtime, handlers, routeBindings);
type Handlers = Parameters<typeof validatorOptions>[1];
const options = validatorOptions(runtime, handlers as unknown as Handlers, bindingPlans(doc, routeBindings), routeBindings);
const oav = new (validatorModules.validator().OpenApiValidator)({ ...options, apiSpec: doc }) as unknown as {
  ajvOpts: { preprocessor: unknown; multipart: unknown };
  options: { validateResponses: unknown };
};
const ajvOptions = oav.ajvOpts.preprocessor;
const responseOptions = oav.options.validateResponses;

describe('the validator tuning', () => {
  applyValidatorPatches();

  it('patches the very modules the validator loads (no second copy of the validator or of path-to-regexp)', () => {
    expect(require.resolve('path-to-regexp', { paths: [validatorDir] })).toBe(require.resolve('path-to-regexp'));
    const preprocessor = require(require.resolve('./middlewares/parsers/schema.preprocessor.js', { paths: [validatorDir] }));
    expect(preprocessor).toBe(validatorModules.preprocessor());
    expect((validatorModules.pathToRegexp().pathToRegexp as { memoized?: boolean }).memoized).toBe(true);
    expect((validatorModules.preprocessor().SchemaPreprocessor.prototype as { byPointer?: boolean }).byPointer).toBe(true);
    expect((validatorModules.specSchema().OpenAPISchemaValidator as { lazy?: boolean }).lazy).toBe(true);
    expect(typeof (validatorModules.metadata().applyOpenApiMetadata as { untuned?: unknown }).untuned).toBe('function');
    expect(typeof (validatorModules.multipart().multipart as { untuned?: unknown }).untuned).toBe('function');
    expect(typeof (validatorModules.util().useAjvCache as { untuned?: unknown }).untuned).toBe('function');
    expect((validatorModules.preprocessor().SchemaPreprocessor as { ajvOnFirstUse?: boolean }).ajvOnFirstUse).toBe(true);
    expect(typeof (validatorModules.ajv().createRequestAjv as { untuned?: unknown }).untuned).toBe('function');
  });

  it('When an operation takes no body or a JSON one, then the multipart step (built on the first body) lets it through as the step as it ships does', async () => {
    type Step = (req: object, res: object, next: (error?: unknown) => void) => unknown;
    type Multipart = ((apiDoc: unknown, options: unknown) => Step) & { untuned: (apiDoc: unknown, options: unknown) => Step };
    const multipart = validatorModules.multipart().multipart as Multipart;
    const options = { multerOpts: {}, ajvOpts: oav.ajvOpts.multipart };
    const outcome = (step: Step, req: object) => new Promise((resolve) => step(req, {}, (error) => resolve(error ?? 'next')));
    const withJsonBody = Object.values(doc.paths)
      .flatMap((item) => Object.values(item) as { requestBody?: { content?: Record<string, unknown> } }[])
      .find((op) => op?.requestBody?.content?.['application/json']);
    expect(withJsonBody).toBeDefined();
    const requests = [
      { openapi: { schema: { responses: {} } }, headers: {} },
      // How an operation without a body reaches the step once the validator has read it.
      { openapi: { schema: { responses: {}, requestBody: null } }, headers: {} },
      { openapi: { schema: withJsonBody }, headers: { 'content-type': 'application/json' } },
    ];
    for (const req of requests) {
      expect(await outcome(multipart(structuredClone(doc), options), req)).toBe('next');
      expect(await outcome(multipart.untuned(structuredClone(doc), options), req)).toBe('next');
    }
    // Requests to operations without a body never build it (its Ajv over the whole contract, and multer).
    const ajvModule = require(require.resolve('./framework/ajv/index.js', { paths: [validatorDir] })) as { createRequestAjv: (...args: unknown[]) => unknown };
    const create = ajvModule.createRequestAjv;
    let built = 0;
    ajvModule.createRequestAjv = (...args: unknown[]) => (built++, create(...args));
    try {
      const step = multipart(structuredClone(doc), options);
      for (const req of requests.slice(0, 2)) expect(await outcome(step, req)).toBe('next');
      expect(built).toBe(0);
      await outcome(step, requests[2]!);
      expect(built).toBe(1);
    } finally {
      ajvModule.createRequestAjv = create;
    }
  });

  it('When json-schema-ref-parser bundles the contract, then nothing changes (so skipping that step is safe)', async () => {
    const refs = localRefs(doc);
    expect(refs.size).toBeGreaterThan(50);
    expect([...refs].filter((ref) => !ref.startsWith('#/'))).toEqual([]);
    const bundled = await $RefParser.bundle(structuredClone(doc) as never);
    expect(bundled).toEqual(doc);
  });

  it('When a ref is followed by pointer, then it is the object Ajv holds for it, for every ref of the contract', () => {
    const { SchemaPreprocessor } = validatorModules.preprocessor() as unknown as { SchemaPreprocessor: PreprocessorClass };
    const copy = structuredClone(doc);
    const pre = new SchemaPreprocessor(copy, ajvOptions, responseOptions);
    let held = 0;
    for (const ref of localRefs(copy)) {
      const target = followPointer(copy, ref);
      expect(target, ref).toBeDefined();
      // Ajv holds the component schemas (the validator adds each under its pointer); other refs it cannot answer.
      const schema = pre.ajv.getSchema(ref)?.schema;
      if (ref.startsWith('#/components/schemas/')) expect(schema, ref).toBe(target);
      if (schema !== undefined) held++;
    }
    expect(held).toBeGreaterThan(50);
  });

  it('When the start-up pass runs with refs followed by pointer, then it produces exactly what it produces through Ajv', () => {
    const { SchemaPreprocessor } = validatorModules.preprocessor() as unknown as { SchemaPreprocessor: PreprocessorClass };
    const tuned = new SchemaPreprocessor(structuredClone(doc), ajvOptions, responseOptions).preProcess();
    const original = new SchemaPreprocessor(structuredClone(doc), ajvOptions, responseOptions);
    // The validator's own lookup, as it ships.
    original.resolveSchema = (SchemaPreprocessor.prototype.resolveSchema as unknown as { untuned: Preprocessor['resolveSchema'] }).untuned;
    const untuned = original.preProcess();
    expect(JSON.stringify(tuned.apiDoc)).toBe(JSON.stringify(untuned.apiDoc));
    expect(JSON.stringify(tuned.apiDocRes)).toBe(JSON.stringify(untuned.apiDocRes));
  });

  it('When the start-up pass runs over the contract, then it never reads its own Ajv, so that Ajv is never built', () => {
    const { SchemaPreprocessor } = validatorModules.preprocessor() as unknown as { SchemaPreprocessor: PreprocessorClass };
    const pre = new SchemaPreprocessor(structuredClone(doc), ajvOptions, responseOptions);
    pre.preProcess();
    // Still the property that builds it when read: nothing read it.
    expect(typeof Object.getOwnPropertyDescriptor(pre, 'ajv')?.get).toBe('function');
    expect(pre.ajv.getSchema('#/components/schemas/Product')?.schema).toBeDefined();
    expect(Object.getOwnPropertyDescriptor(pre, 'ajv')?.get).toBeUndefined();
  });

  it('When the start-up pass has its Ajv built at construction, as it ships, then it produces exactly what it produces with the Ajv built on first use', () => {
    const { SchemaPreprocessor } = validatorModules.preprocessor() as unknown as { SchemaPreprocessor: PreprocessorClass };
    const createRequestAjv = (validatorModules.ajv().createRequestAjv as { untuned: (spec: unknown, options: unknown) => Preprocessor['ajv'] }).untuned;
    const tuned = new SchemaPreprocessor(structuredClone(doc), ajvOptions, responseOptions).preProcess();
    const shippedDoc = structuredClone(doc);
    const shipped = new SchemaPreprocessor(shippedDoc, ajvOptions, responseOptions);
    shipped.ajv = createRequestAjv(shippedDoc, ajvOptions);
    // And looking every ref up through that Ajv, as the validator ships, so it is used.
    shipped.resolveSchema = (SchemaPreprocessor.prototype.resolveSchema as unknown as { untuned: Preprocessor['resolveSchema'] }).untuned;
    const untuned = shipped.preProcess();
    expect(JSON.stringify(tuned.apiDoc)).toBe(JSON.stringify(untuned.apiDoc));
    expect(JSON.stringify(tuned.apiDocRes)).toBe(JSON.stringify(untuned.apiDocRes));
  });

  it("When an operation's schemas are added without walking the document beside them, then every documented answer (and some wrong ones) validates exactly as before", () => {
    // Nothing for Ajv's walk to find there: no $id or anchor anywhere in the contract.
    const ids = JSON.stringify(doc).match(/"\$(id|anchor|dynamicAnchor)"\s*:/g);
    expect(ids).toBeNull();
    type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null };
    type UseAjvCache = ((ajv: unknown, schema: object, key: string) => Validate) & { untuned: (ajv: unknown, schema: object, key: string) => Validate };
    const useAjvCache = validatorModules.util().useAjvCache as UseAjvCache;
    const { createResponseAjv } = require(require.resolve('./framework/ajv/index.js', { paths: [validatorDir] })) as {
      createResponseAjv(spec: unknown, options: unknown): unknown;
    };
    const responseAjvOptions = (oav.ajvOpts as unknown as { response: unknown }).response;
    const [tunedAjv, untunedAjv] = [createResponseAjv(doc, responseAjvOptions), createResponseAjv(doc, responseAjvOptions)];
    type Media = { schema?: unknown; example?: unknown; examples?: Record<string, { value?: unknown }> };
    let compared = 0;
    for (const [path, item] of Object.entries(
      doc.paths as Record<string, Record<string, { responses?: Record<string, { content?: Record<string, Media> }> }>>,
    )) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          const media = response.content?.['application/json'];
          if (!media?.schema) continue;
          // Built as the response validator builds it: the answer under `response`, the document beside it.
          const schemaFor = () => ({ type: 'object', properties: { response: media.schema }, components: doc.components, paths: doc.paths });
          const key = `${method}-${path}-${status}`;
          const tuned = useAjvCache(tunedAjv, schemaFor(), key);
          const untuned = useAjvCache.untuned(untunedAjv, schemaFor(), key);
          const samples = [media.example, ...Object.values(media.examples ?? {}).map((e) => e.value), {}, null, 'text', { data: [{ id: 7 }] }].filter(
            (x) => x !== undefined,
          );
          for (const sample of samples) {
            expect(tuned({ response: sample }), `${key} ${JSON.stringify(sample)?.slice(0, 80)}`).toBe(untuned({ response: sample }));
            expect(tuned.errors ?? null).toEqual(untuned.errors ?? null);
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(300);
    // Compiles every documented answer's schema twice (tuned and as shipped): a busy machine needs more than the default.
  }, 90_000);

  it('When the OpenAPI schema check is asked for, then it still runs (compiled on first use) and still finds errors', () => {
    const { OpenAPISchemaValidator } = validatorModules.specSchema() as unknown as {
      OpenAPISchemaValidator: new (o: { version: string; validateApiSpec: boolean }) => { validate(d: unknown): { errors: unknown[] } };
    };
    const check = new OpenAPISchemaValidator({ version: doc.openapi, validateApiSpec: true });
    expect(check.validate(structuredClone(doc)).errors).toEqual([]);
    const broken = { ...structuredClone(doc), info: { version: 7 } };
    expect(check.validate(broken).errors.length).toBeGreaterThan(0);
  });
});

describe('the route lookup', () => {
  type Req = {
    method: string;
    url: string;
    originalUrl: string;
    path: string;
    baseUrl: string;
    app: { enabled(s: string): boolean };
    openapi?: Record<string, unknown>;
    params?: unknown;
  };
  type Factory = ((context: unknown, responseApiDoc: unknown) => (req: Req, res: unknown, next: (e?: unknown) => void) => void) & { untuned: Factory };

  async function contextOf(apiDoc: object) {
    const { OpenApiSpecLoader } = require(require.resolve('./framework/openapi.spec.loader.js', { paths: [validatorDir] }));
    const { OpenApiContext } = require(require.resolve('./framework/openapi.context.js', { paths: [validatorDir] }));
    const spec = await new OpenApiSpecLoader({ apiDoc: structuredClone(apiDoc), validateApiSpec: false }).load();
    return { context: new OpenApiContext(spec, undefined, false, false), apiDoc: spec.apiDoc };
  }

  function run(factory: Factory, context: unknown, apiDoc: unknown, method: string, url: string) {
    const req: Req = { method, url, originalUrl: url, path: url.split('?')[0]!, baseUrl: '', app: { enabled: () => false } };
    let outcome: unknown;
    try {
      factory(context, apiDoc)(req, {}, (error?: unknown) => (outcome = error === undefined ? 'next' : error));
    } catch (error) {
      outcome = error;
    }
    const { status, message, path } = (outcome ?? {}) as { status?: number; message?: string; path?: string };
    return {
      outcome: typeof outcome === 'string' ? outcome : { status, message, path },
      route: req.openapi && {
        expressRoute: req.openapi.expressRoute,
        openApiRoute: req.openapi.openApiRoute,
        pathParams: req.openapi.pathParams,
        schema: req.openapi.schema,
        responseSchema: req.openapi._responseSchema,
      },
      params: req.params,
    };
  }

  it("When any request of the contract, or one it does not have, is looked up, then the route, params and errors are the validator's own", async () => {
    const { context, apiDoc } = await contextOf(doc);
    const tuned = (validatorModules.metadata() as unknown as { applyOpenApiMetadata: Factory }).applyOpenApiMetadata;
    const fill = (path: string) => path.replace(/\{[^}]+\}/g, (_m, i: number) => `0000000${i % 10}-aaaa-4aaa-8aaa-aaaaaaaaaaaa`);
    const cases: [string, string][] = [];
    for (const path of Object.keys(doc.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) cases.push([method.toUpperCase(), fill(path)]);
      cases.push(['GET', `${fill(path)}?page=2&per_page=5`]);
      cases.push(['GET', `${fill(path)}/extra`]);
    }
    cases.push(
      ['GET', '/2024-09/nothing-here'],
      ['GET', '/'],
      ['GET', '/docs/'],
      ['GET', '/2024-09/products/%E0%A4%A'],
      ['POST', '/2024-09/channels/retailer/abc%2Fdef/relay'],
    );
    let compared = 0;
    for (const [method, url] of cases) {
      const want = run(tuned.untuned, context, apiDoc, method, url);
      const got = run(tuned, context, apiDoc, method, url);
      expect(got, `${method} ${url}`).toEqual(want);
      if (want.route?.schema !== undefined) expect(got.route?.schema).toBe(want.route?.schema);
      compared++;
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('When two routes match a path, then the one the validator would pick is picked (its order, not the last match)', async () => {
    // The contract's paths never overlap; this one's do, both ways round.
    const op = (operationId: string) => ({ operationId, responses: { '200': { description: 'ok' } } });
    const overlapping = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/things/{id}': { get: op('getThing') },
        '/things/special': { get: op('getSpecial') },
        '/things/{id}/parts/{part}': { get: op('getPart') },
        '/things/special/parts/{part}': { get: op('getSpecialPart') },
      },
    };
    const { context, apiDoc } = await contextOf(overlapping);
    const tuned = (validatorModules.metadata() as unknown as { applyOpenApiMetadata: Factory }).applyOpenApiMetadata;
    for (const url of ['/things/special', '/things/other', '/things/special/parts/1', '/things/x/parts/1']) {
      const want = run(tuned.untuned, context, apiDoc, 'GET', url);
      expect(want.route, url).toBeDefined();
      expect(run(tuned, context, apiDoc, 'GET', url), url).toEqual(want);
    }
  });
});
