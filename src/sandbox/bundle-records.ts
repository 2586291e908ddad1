// What a record of each collection must be for a bundle to load: the contract's component schema it is stored as
// (less the fields derived when presented, plus the internal ones the store keeps), and the records it refers to.
// Checked with Ajv over the contract's own components, compiled on the first load by the runtime's ContractChecks.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { CONTRACT_FORMATS } from '../contract/document/formats.js';
import { deref, type ContractDocument } from '../contract/document/load-contract.js';

type Obj = Record<string, unknown>;

/**
 * How a collection's records are checked: its component schema, what the store leaves out, the create and update
 * schemas whose limits its records meet. The fields only the store keeps are those the contract's SandboxBundleRecord
 * lists for the collection (`x-sandbox-stored-fields`).
 */
interface RecordShape {
  schema?: string;
  /** Presented fields the store does not keep (derived at presentation). */
  omit?: readonly string[];
  /** Presented fields a stored record may lack (kept before the field existed). */
  optional?: readonly string[];
  /** The request bodies that make or change these records: a stored field meets each one's schema for it. */
  limits?: readonly string[];
  /** No request deletes these records (users, the marketplaces and their catalog), so a bundle deletes none either. */
  kept?: true;
}

/** Every collection a bundle may carry (tokens never travel) and the shape of its records. */
const SHAPES: Readonly<Record<string, RecordShape>> = {
  users: { schema: 'User', limits: ['SandboxUserCreate', 'UserUpdate'], kept: true },
  merchants: { schema: 'Merchant', limits: ['MerchantCreate', 'MerchantUpdate'] },
  memberships: { schema: 'MerchantMembership', omit: ['user'] },
  marketplaces: { schema: 'Marketplace', kept: true },
  catalog_items: { schema: 'CatalogItem', omit: ['main_image_url', 'thumbnail_image_url', 'offer_count', 'buy_box_price'], kept: true },
  catalog_item_imports: {
    schema: 'CatalogItemImport',
    omit: ['status', 'requested_count', 'found_count', 'not_found_count', 'started_at', 'completed_at'],
    limits: ['CatalogItemImportCreate'],
  },
  channels: { schema: 'Channel', omit: ['connected', 'marketplace_id', 'access_token_expires_at'], limits: ['ChannelCreate', 'ChannelUpdate'] },
  channel_connections: { limits: ['ChannelConnectionData'] },
  channel_calls: { schema: 'ChannelCall', optional: ['fault'] },
  retailer_states: {},
  retailer_grants: { limits: ['ChannelConnectionData'] },
  retailer_authorizations: {},
  products: { schema: 'Product', omit: ['identifiers', 'main_image_url', 'thumbnail_image_url'], limits: ['ProductCreate', 'ProductUpdate'] },
  product_identifiers: { schema: 'ProductIdentifier', limits: ['IdentifierCreate'] },
  product_images: { schema: 'ProductImage', limits: ['ProductImageCreate'] },
  suppliers: { schema: 'Supplier', limits: ['SupplierCreate', 'SupplierUpdate'] },
  supplier_items: { schema: 'SupplierItem', omit: ['identifiers'], limits: ['SupplierItemCreate', 'SupplierItemUpdate'] },
  supplier_item_identifiers: { schema: 'SupplierItemIdentifier', limits: ['IdentifierCreate'] },
  scraping_requests: { schema: 'ScrapingRequest', omit: ['status', 'attempts_finished_count', 'next_attempt_at'], limits: ['ScrapingRequestCreate'] },
  opportunity_forecasts: { schema: 'OpportunityForecast' },
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

/** The collections whose records no request deletes: a bundle's `deleted` names none of them. */
export const KEPT_COLLECTIONS: ReadonlySet<string> = new Set(Object.keys(SHAPES).filter((name) => SHAPES[name]!.kept));

/** Checks one record; answers its problems as field path -> messages (empty when it conforms). */
export type RecordCheck = (record: unknown) => Record<string, string[]>;

const CONTRACT_ID = 'contract.json';

/** The derived schema of one collection's records, its refs pointing into the contract's components. */
function recordSchema(doc: Obj, name: string, shape: RecordShape): Obj {
  const component = (schema: string) => deref(doc as never, { $ref: `#/components/schemas/${schema}` }) as Obj;
  const base = shape.schema ? component(shape.schema) : { type: 'object', required: ['id'], properties: { id: { type: 'string' } } };
  const storedFields = component('SandboxBundleRecord')['x-sandbox-stored-fields'] as { properties: Record<string, { properties: Obj } | undefined> };
  const stored = storedFields.properties[name]?.properties;
  const omit = new Set(shape.omit ?? []);
  const properties: Obj = {};
  for (const [field, schema] of Object.entries((base.properties as Obj | undefined) ?? {})) if (!omit.has(field)) properties[field] = schema;
  Object.assign(properties, stored ?? {});
  const optional = new Set(shape.optional ?? []);
  const required = ((base.required as string[] | undefined) ?? []).filter((field) => !omit.has(field) && !optional.has(field));
  // A stored field meets what each request body that sets it allows (a title of at most 255 characters).
  const limits = (shape.limits ?? []).map((body) => {
    const bodyProperties = (component(body).properties as Obj | undefined) ?? {};
    return { properties: Object.fromEntries(Object.entries(bodyProperties).filter(([field]) => field in properties)) };
  });
  // Only the fields the store keeps: a record the API made holds no other (unknown fields of a request are ignored).
  const derived = {
    ...base,
    properties,
    required: [...required, ...Object.keys(stored ?? {})],
    additionalProperties: false,
    ...(limits.length ? { allOf: limits } : {}),
  };
  return JSON.parse(JSON.stringify(derived).replaceAll('"#/components/', `"${CONTRACT_ID}#/components/`)) as Obj;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * The checks of a bundle's records against one contract's components, compiled on the first load (a schema per
 * turn of the event loop, see `prepare`) and kept by the runtime that serves that contract (the contract does not
 * change while it runs).
 */
export class ContractChecks {
  private ajv: Ajv | undefined;
  private readonly records = new Map<string, RecordCheck>();

  constructor(private readonly doc: ContractDocument) {}

  /** Compiles a schema whose refs point into the contract's components (`contract.json#/components/...`). */
  compile(schema: Obj): ValidateFunction {
    return this.compiler().compile(schema);
  }

  /** The Ajv instance over the contract's components (made once: it reads every component). */
  private compiler(): Ajv {
    if (!this.ajv) {
      // strictNumbers: JSON's 1e400 parses to Infinity, which `strict: false` would let pass as an integer or a
      // number (the request validator's Ajv refuses it, so the API never stores one).
      this.ajv = new Ajv({ strict: false, strictNumbers: true, allErrors: true, validateFormats: true });
      addFormats(this.ajv);
      for (const [name, format] of Object.entries(CONTRACT_FORMATS)) this.ajv.addFormat(name, format);
      this.ajv.addSchema({ $id: CONTRACT_ID, components: this.doc.components }, CONTRACT_ID);
    }
    return this.ajv;
  }

  /** Compiles what is not compiled yet, one schema per step, `between` awaited after each (a turn of the event loop). */
  async prepare(between: () => Promise<void>): Promise<void> {
    if (!this.ajv) {
      this.compiler();
      await between();
    }
    for (const [name, shape] of Object.entries(SHAPES)) {
      if (this.records.has(name)) continue;
      this.compileRecordCheck(name, shape);
      await between();
    }
  }

  /** The check of each collection's records. */
  recordChecks(): ReadonlyMap<string, RecordCheck> {
    for (const [name, shape] of Object.entries(SHAPES)) if (!this.records.has(name)) this.compileRecordCheck(name, shape);
    return this.records;
  }

  private compileRecordCheck(name: string, shape: RecordShape): void {
    const validate = this.compile(recordSchema(this.doc as unknown as Obj, name, shape));
    this.records.set(name, (record) => (validate(record) ? {} : fieldProblems(validate.errors ?? [], 'record')));
  }
}

/** Ajv's errors as field path -> messages, in the validation answers' words; `root` names the value itself. */
export function fieldProblems(errors: readonly ErrorObject[], root: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const error of errors) {
    const params = error.params as { missingProperty?: string; additionalProperty?: string };
    const missing = error.keyword === 'required' ? params.missingProperty : undefined;
    const unknown = error.keyword === 'additionalProperties' ? params.additionalProperty : undefined;
    const path = [error.instancePath.slice(1).replaceAll('/', '.'), missing ?? unknown].filter(Boolean).join('.') || root;
    const message = missing
      ? `The ${path} field is required.`
      : unknown
        ? `The ${path} field is not one this object may have.`
        : `The ${path} field ${error.message ?? 'is invalid'}.`;
    // A field bounded alike by a create and an update schema is named once.
    if (!out[path]?.includes(message)) (out[path] ??= []).push(message);
  }
  return out;
}
