// What a record of each collection must be for a bundle to load: the contract's component schema it is stored as
// (less the fields derived when presented, plus the internal ones the store keeps), and the records it refers to.
// Checked with Ajv over the contract's own components, compiled once per process on the first load.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { deref, loadContract } from '../contract/document/load-contract.js';

type Obj = Record<string, unknown>;

/** How a collection's records are checked: its component schema, what the store leaves out, what it adds. */
interface RecordShape {
  schema?: string;
  /** Presented fields the store does not keep (derived at presentation). */
  omit?: readonly string[];
  /** Fields only the store keeps, with their schemas. */
  extra?: Readonly<Record<string, Obj>>;
}

const text = { type: 'string' };
const dateTime = { type: 'string', format: 'date-time' };
const object = { type: 'object' };

/** Every collection a bundle may carry (tokens never travel) and the shape of its records. */
const SHAPES: Readonly<Record<string, RecordShape>> = {
  users: { schema: 'User' },
  merchants: { schema: 'Merchant' },
  memberships: { schema: 'MerchantMembership', omit: ['user'] },
  marketplaces: { schema: 'Marketplace' },
  catalog_items: {
    schema: 'CatalogItem',
    omit: ['main_image_url', 'thumbnail_image_url', 'offer_count', 'buy_box_price'],
    extra: { images: { type: 'array', items: object }, seller_count: { type: 'integer', minimum: 0 }, available_at: dateTime, simulation: object },
  },
  catalog_item_imports: {
    schema: 'CatalogItemImport',
    omit: ['status', 'requested_count', 'found_count', 'not_found_count', 'started_at', 'completed_at'],
    extra: { starts_at: dateTime, completes_at: dateTime, processed: { type: 'boolean' } },
  },
  channels: { schema: 'Channel', omit: ['connected', 'marketplace_id', 'access_token_expires_at'] },
  channel_connections: {
    extra: { channel_id: text, access_token: text, refresh_token: text, access_token_expires_at: dateTime, marketplace_id: text },
  },
  channel_calls: { schema: 'ChannelCall', omit: ['fault'], extra: {} },
  retailer_states: { extra: { channel_id: text } },
  retailer_grants: { extra: { channel_id: text } },
  retailer_authorizations: { extra: { channel_id: text } },
  products: { schema: 'Product', omit: ['identifiers', 'main_image_url', 'thumbnail_image_url'] },
  product_identifiers: { schema: 'ProductIdentifier' },
  product_images: { schema: 'ProductImage', extra: { storage_key: { type: ['string', 'null'] } } },
  suppliers: { schema: 'Supplier' },
  supplier_items: { schema: 'SupplierItem', omit: ['identifiers'] },
  supplier_item_identifiers: { schema: 'SupplierItemIdentifier' },
  scraping_requests: {
    schema: 'ScrapingRequest',
    omit: ['status', 'attempts_finished_count', 'next_attempt_at'],
    extra: { applied_attempts: { type: 'integer', minimum: 0 } },
  },
  opportunity_forecasts: { schema: 'OpportunityForecast', extra: { merchant_id: text, supplier_item_id: text } },
};

/** The records a field refers to, by collection: field -> the collection that must hold its value (null is none). */
export const REFERENCES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  memberships: { merchant_id: 'merchants', user_id: 'users' },
  products: { merchant_id: 'merchants' },
  product_identifiers: { product_id: 'products' },
  product_images: { product_id: 'products' },
  suppliers: { merchant_id: 'merchants' },
  supplier_items: { merchant_id: 'merchants', supplier_id: 'suppliers', product_id: 'products' },
  supplier_item_identifiers: { supplier_item_id: 'supplier_items' },
  scraping_requests: { merchant_id: 'merchants', supplier_id: 'suppliers' },
  channels: { merchant_id: 'merchants' },
  channel_connections: { channel_id: 'channels' },
  retailer_states: { channel_id: 'channels' },
  retailer_grants: { channel_id: 'channels' },
  retailer_authorizations: { channel_id: 'channels' },
  catalog_item_imports: { merchant_id: 'merchants' },
  opportunity_forecasts: { merchant_id: 'merchants', supplier_item_id: 'supplier_items', marketplace_catalog_item_id: 'catalog_items' },
};

/** The collections a bundle may name. */
export const BUNDLE_COLLECTIONS: ReadonlySet<string> = new Set(Object.keys(SHAPES));

/** Checks one record; answers its problems as field path -> messages (empty when it conforms). */
export type RecordCheck = (record: unknown) => Record<string, string[]>;

const CONTRACT_ID = 'contract.json';

/** The derived schema of one collection's records, its refs pointing into the contract's components. */
function recordSchema(doc: Obj, shape: RecordShape): Obj {
  const base = shape.schema
    ? (deref(doc as never, { $ref: `#/components/schemas/${shape.schema}` }) as Obj)
    : { type: 'object', required: ['id'], properties: { id: text } };
  const omit = new Set(shape.omit ?? []);
  const properties: Obj = {};
  for (const [name, schema] of Object.entries((base.properties as Obj | undefined) ?? {})) if (!omit.has(name)) properties[name] = schema;
  Object.assign(properties, shape.extra ?? {});
  const required = ((base.required as string[] | undefined) ?? []).filter((name) => !omit.has(name));
  // Internal fields are allowed beside the named ones; what the contract names is checked as it says.
  const derived = { ...base, properties, required: [...required, ...Object.keys(shape.extra ?? {})], additionalProperties: true };
  return JSON.parse(JSON.stringify(derived).replaceAll('"#/components/', `"${CONTRACT_ID}#/components/`)) as Obj;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

let contractAjv: Ajv | undefined;

/** Compiles a schema whose refs point into the contract's components (`contract.json#/components/...`). */
export function compileAgainstContract(schema: Obj): ValidateFunction {
  if (!contractAjv) {
    contractAjv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    addFormats(contractAjv);
    contractAjv.addSchema({ $id: CONTRACT_ID, components: (loadContract().doc as unknown as Obj).components }, CONTRACT_ID);
  }
  return contractAjv.compile(schema);
}

/** Ajv's errors as field path -> messages, in the validation answers' words; `root` names the value itself. */
export function fieldProblems(errors: readonly ErrorObject[], root: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const error of errors) {
    const missing = error.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined;
    const path = [error.instancePath.slice(1).replaceAll('/', '.'), missing].filter(Boolean).join('.') || root;
    const message = missing ? `The ${path} field is required.` : `The ${path} field ${error.message ?? 'is invalid'}.`;
    (out[path] ??= []).push(message);
  }
  return out;
}

function compileChecks(): Map<string, RecordCheck> {
  const doc = loadContract().doc as unknown as Obj;
  const checks = new Map<string, RecordCheck>();
  for (const [name, shape] of Object.entries(SHAPES)) {
    const validate = compileAgainstContract(recordSchema(doc, shape));
    checks.set(name, (record) => (validate(record) ? {} : fieldProblems(validate.errors ?? [], 'record')));
  }
  return checks;
}

let compiled: Map<string, RecordCheck> | undefined;

/** The check of each collection's records (compiled on first use: the contract does not change while running). */
export function recordChecks(): ReadonlyMap<string, RecordCheck> {
  return (compiled ??= compileChecks());
}
