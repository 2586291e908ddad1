import { emptyState, findListing, withListing } from '../channel-state.js';
import { invalidInput, notFoundError } from '../errors.js';
import { readListingAttributes } from '../listing-attributes.js';
import { attributesProblem, listingChangeProblem, nameProblem } from '../state-limits.js';
import { marketplaceById } from '../marketplaces.js';
import type { OperationContext, OperationOutcome, RetailerOperation } from '../operation.js';
import type { RetailerListing } from '../record-types.js';
import { isResult, marketplaceIds } from './marketplace-param.js';

const PATCH_OPS = ['add', 'replace', 'delete'] as const;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A listing as the listings items API 2021-08-01 shows it. */
function presentListing(l: RetailerListing, marketplaceId: string) {
  const { name, price, quantity, fulfillment } = readListingAttributes(l.attributes);
  return {
    sku: l.sku,
    summaries: [
      {
        marketplaceId,
        ...(l.asin ? { asin: l.asin } : {}),
        productType: l.product_type,
        conditionType: 'new_new',
        status: quantity > 0 && price !== null ? ['BUYABLE', 'DISCOVERABLE'] : ['DISCOVERABLE'],
        ...(name ? { itemName: name } : {}),
        createdDate: l.created_at,
        lastUpdatedDate: l.updated_at,
      },
    ],
    attributes: l.attributes,
    issues: [],
    offers:
      price === null
        ? []
        : [{ marketplaceId, offerType: 'B2C', price: { currencyCode: marketplaceById(marketplaceId).defaultCurrencyCode, amount: price.toFixed(2) } }],
    fulfillmentAvailability: [{ fulfillmentChannelCode: fulfillment, quantity }],
  };
}

/** Checks the seller id and marketplaces every listings call needs; answers the first marketplace or the error. */
function guard(ctx: OperationContext): string | OperationOutcome {
  if (ctx.params.sellerId !== ctx.account.seller_id) {
    return invalidInput(`The sellerId ${ctx.params.sellerId} is not the seller of this authorization (${ctx.account.seller_id}).`);
  }
  const ids = marketplaceIds(ctx, 'marketplaceIds');
  return isResult(ids) ? ids : ids[0]!;
}

const accepted = (ctx: OperationContext, sku: string, state: OperationOutcome['state']): OperationOutcome => ({
  status: 200,
  body: { sku, status: 'ACCEPTED', submissionId: ctx.newId(), issues: [] },
  state,
});

function getListing(ctx: OperationContext): OperationOutcome {
  const marketplace = guard(ctx);
  if (isResult(marketplace)) return marketplace;
  const listing = findListing(ctx.account, ctx.state, ctx.params.sku!);
  if (!listing) return notFoundError(`SKU '${ctx.params.sku}' not found in marketplace ${marketplace}`);
  return { status: 200, body: presentListing(listing, marketplace) };
}

function putListing(ctx: OperationContext): OperationOutcome {
  const marketplace = guard(ctx);
  if (isResult(marketplace)) return marketplace;
  const body = ctx.body;
  if (!isObject(body) || typeof body.productType !== 'string' || body.productType.length === 0) {
    return invalidInput('The request body must be an object with productType (string) and attributes (object).');
  }
  if (!isObject(body.attributes)) return invalidInput('attributes must be an object.');
  const sku = ctx.params.sku!;
  const tooMuch = nameProblem('productType', body.productType) ?? listingChangeProblem(ctx.state, sku) ?? attributesProblem(body.attributes);
  if (tooMuch) return invalidInput(tooMuch);
  const existing = findListing(ctx.account, ctx.state, sku);
  const now = ctx.now.toISOString();
  const suggested = Array.isArray(body.attributes.merchant_suggested_asin)
    ? (body.attributes.merchant_suggested_asin[0] as { value?: unknown })?.value
    : undefined;
  const listing: RetailerListing = {
    sku,
    asin: existing?.asin ?? (typeof suggested === 'string' ? suggested : null),
    product_type: body.productType,
    attributes: body.attributes,
    created_at: existing?.created_at ?? now,
    updated_at: now,
  };
  return accepted(ctx, sku, withListing(ctx.state ?? emptyState(ctx.channelId, ctx.now), ctx.account, sku, listing, ctx.now));
}

function patchListing(ctx: OperationContext): OperationOutcome {
  const marketplace = guard(ctx);
  if (isResult(marketplace)) return marketplace;
  const body = ctx.body;
  if (!isObject(body) || typeof body.productType !== 'string' || !Array.isArray(body.patches) || body.patches.length === 0) {
    return invalidInput('The request body must be an object with productType (string) and a non-empty patches array.');
  }
  const sku = ctx.params.sku!;
  const existing = findListing(ctx.account, ctx.state, sku);
  if (!existing) return notFoundError(`SKU '${sku}' not found in marketplace ${marketplace}`);
  const attributes = { ...existing.attributes };
  for (const [i, patch] of body.patches.entries()) {
    const op = isObject(patch) ? patch.op : undefined;
    const path = isObject(patch) ? patch.path : undefined;
    if (!(PATCH_OPS as readonly unknown[]).includes(op) || typeof path !== 'string' || !/^\/attributes\/[A-Za-z0-9_]+$/.test(path)) {
      return invalidInput(`patches[${i}] must have op add, replace or delete and a path like /attributes/item_name.`);
    }
    const name = path.slice('/attributes/'.length);
    if (op === 'delete') delete attributes[name];
    else if (!Array.isArray((patch as Record<string, unknown>).value)) return invalidInput(`patches[${i}].value must be an array.`);
    else attributes[name] = (patch as Record<string, unknown>).value;
  }
  const tooMuch = nameProblem('productType', body.productType) ?? listingChangeProblem(ctx.state, sku) ?? attributesProblem(attributes);
  if (tooMuch) return invalidInput(tooMuch);
  const listing = { ...existing, product_type: body.productType, attributes, updated_at: ctx.now.toISOString() };
  return accepted(ctx, sku, withListing(ctx.state ?? emptyState(ctx.channelId, ctx.now), ctx.account, sku, listing, ctx.now));
}

function deleteListing(ctx: OperationContext): OperationOutcome {
  const marketplace = guard(ctx);
  if (isResult(marketplace)) return marketplace;
  const sku = ctx.params.sku!;
  if (!findListing(ctx.account, ctx.state, sku)) return notFoundError(`SKU '${sku}' not found in marketplace ${marketplace}`);
  const tooMuch = listingChangeProblem(ctx.state, sku);
  if (tooMuch) return invalidInput(tooMuch);
  return accepted(ctx, sku, withListing(ctx.state ?? emptyState(ctx.channelId, ctx.now), ctx.account, sku, null, ctx.now));
}

const path = 'listings/2021-08-01/items/{sellerId}/{sku}';
const limit = { rate: 5, burst: 10 };

/** The listings items API 2021-08-01 operations: the writable part of the simulated retailer. */
export const listingOperations: RetailerOperation[] = [
  { name: 'getListingsItem', method: 'GET', path, limit, run: getListing },
  { name: 'putListingsItem', method: 'PUT', path, limit, run: putListing },
  { name: 'patchListingsItem', method: 'PATCH', path, limit, run: patchListing },
  { name: 'deleteListingsItem', method: 'DELETE', path, limit, run: deleteListing },
];
