import { invalidInput, notFoundError } from '../errors.js';
import { marketplaceById } from '../marketplaces.js';
import type { OperationContext, OperationOutcome, RetailerOperation } from '../operation.js';
import { decodePageToken, encodePageToken, isOffset } from '../page-token.js';
import { date, int, list, one } from '../query.js';
import type { RetailerOrder } from '../seller-account-types.js';
import { isResult, marketplaceIds } from './marketplace-param.js';

const MAX_PAGE_SIZE = 100;

interface OrdersFilter {
  m: string[];
  ca?: string;
  cb?: string;
  ua?: string;
  s: string[];
  n: number;
  o: number;
}

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');
const isIsoDate = (value: unknown) => typeof value === 'string' && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;
const isDateOrAbsent = (value: unknown) => value === undefined || isIsoDate(value);

/** The fields of a NextToken: the whole filter, as readFilter builds it. */
const FILTER_FIELDS = ['m', 'ca', 'cb', 'ua', 's', 'n', 'o'] as const satisfies readonly (keyof OrdersFilter)[];

/** A NextToken carries the whole filter; one that is not exactly what readFilter builds was forged. */
function isOrdersFilter(f: Partial<Record<keyof OrdersFilter, unknown>>): f is OrdersFilter {
  return (
    isStrings(f.m) &&
    isStrings(f.s) &&
    Number.isInteger(f.n) &&
    (f.n as number) >= 1 &&
    (f.n as number) <= MAX_PAGE_SIZE &&
    isOffset(f.o) &&
    isDateOrAbsent(f.ca) &&
    isDateOrAbsent(f.cb) &&
    isDateOrAbsent(f.ua)
  );
}

const money = (amount: number, marketplaceId: string) => ({
  CurrencyCode: marketplaceById(marketplaceId).defaultCurrencyCode,
  Amount: amount.toFixed(2),
});

const total = (o: RetailerOrder) => o.lines.reduce((sum, l) => sum + l.quantity * l.unit_price, 0);

/** An order as the orders API v0 shows it (buyer PII beyond city/state/postcode is restricted there too). */
function presentOrder(o: RetailerOrder, marketplaceId: string) {
  const items = o.lines.reduce((n, l) => n + l.quantity, 0);
  const shipped = o.status === 'Shipped' ? items : o.status === 'PartiallyShipped' ? Math.ceil(items / 2) : 0;
  return {
    AmazonOrderId: o.order_id,
    PurchaseDate: o.purchase_date,
    LastUpdateDate: o.last_update_date,
    OrderStatus: o.status,
    FulfillmentChannel: o.fulfillment_channel,
    SalesChannel: marketplaceById(marketplaceId).name,
    OrderType: 'StandardOrder',
    ...(o.status === 'Canceled' ? {} : { OrderTotal: money(total(o), marketplaceId) }),
    NumberOfItemsShipped: shipped,
    NumberOfItemsUnshipped: o.status === 'Canceled' ? 0 : items - shipped,
    PaymentMethod: 'Other',
    MarketplaceId: marketplaceId,
    ShipmentServiceLevelCategory: 'Standard',
    IsPrime: o.fulfillment_channel === 'AFN',
    IsBusinessOrder: false,
    ShippingAddress: {
      City: o.buyer_city,
      StateOrRegion: o.buyer_state,
      PostalCode: o.buyer_postal_code,
      CountryCode: marketplaceById(marketplaceId).countryCode,
    },
  };
}

function readFilter(ctx: OperationContext): OrdersFilter | OperationOutcome {
  const token = one(ctx.query, 'NextToken');
  if (token !== undefined) {
    return decodePageToken(token, ctx.channelId, FILTER_FIELDS, isOrdersFilter) ?? invalidInput('Invalid NextToken.');
  }
  const ids = marketplaceIds(ctx, 'MarketplaceIds');
  if (isResult(ids)) return ids;
  const createdAfter = date(ctx.query, 'CreatedAfter');
  const createdBefore = date(ctx.query, 'CreatedBefore');
  const updatedAfter = date(ctx.query, 'LastUpdatedAfter');
  if (createdAfter === null || createdBefore === null || updatedAfter === null) return invalidInput('Dates must be in ISO 8601 format.');
  if ((createdAfter === undefined) === (updatedAfter === undefined)) {
    return invalidInput('Exactly one of CreatedAfter and LastUpdatedAfter must be specified.');
  }
  const size = int(ctx.query, 'MaxResultsPerPage', 1, MAX_PAGE_SIZE);
  if (Number.isNaN(size)) return invalidInput('MaxResultsPerPage must be an integer from 1 to 100.');
  return {
    m: ids,
    ca: createdAfter?.toISOString(),
    cb: createdBefore?.toISOString(),
    ua: updatedAfter?.toISOString(),
    s: list(ctx.query, 'OrderStatuses'),
    n: size ?? MAX_PAGE_SIZE,
    o: 0,
  };
}

function getOrders(ctx: OperationContext): OperationOutcome {
  const filter = readFilter(ctx);
  if (isResult(filter)) return filter;
  if (!filter.m.includes(ctx.marketplaceId)) return { status: 200, body: { payload: { Orders: [] } } };
  // The real API answers nothing newer than two minutes; the seeded orders all lie before the reference date anyway.
  const createdBefore = filter.cb ?? new Date(ctx.now.getTime() - 120_000).toISOString();
  const matching = ctx.account.orders.filter(
    (o) =>
      (filter.ca === undefined || o.purchase_date >= filter.ca) &&
      o.purchase_date < createdBefore &&
      (filter.ua === undefined || o.last_update_date >= filter.ua) &&
      (filter.s.length === 0 || filter.s.includes(o.status)),
  );
  const page = matching.slice(filter.o, filter.o + filter.n);
  const next = filter.o + filter.n < matching.length ? encodePageToken(ctx.channelId, { ...filter, cb: createdBefore, o: filter.o + filter.n }) : undefined;
  return {
    status: 200,
    body: {
      payload: {
        Orders: page.map((o) => presentOrder(o, ctx.marketplaceId)),
        ...(next ? { NextToken: next } : {}),
        ...(filter.ca !== undefined ? { CreatedBefore: createdBefore } : { LastUpdatedBefore: createdBefore }),
      },
    },
  };
}

const findOrder = (ctx: OperationContext) => ctx.account.orders.find((o) => o.order_id === ctx.params.orderId);

function getOrder(ctx: OperationContext): OperationOutcome {
  const order = findOrder(ctx);
  if (!order) return notFoundError(`Order ${ctx.params.orderId} was not found.`);
  return { status: 200, body: { payload: presentOrder(order, ctx.marketplaceId) } };
}

function getOrderItems(ctx: OperationContext): OperationOutcome {
  const order = findOrder(ctx);
  if (!order) return notFoundError(`Order ${ctx.params.orderId} was not found.`);
  const shipped = order.status === 'Shipped';
  return {
    status: 200,
    body: {
      payload: {
        AmazonOrderId: order.order_id,
        OrderItems: order.lines.map((l) => ({
          ASIN: l.asin,
          SellerSKU: l.sku,
          OrderItemId: l.order_item_id,
          Title: l.title,
          QuantityOrdered: l.quantity,
          QuantityShipped: shipped ? l.quantity : 0,
          ItemPrice: money(l.quantity * l.unit_price, ctx.marketplaceId),
        })),
      },
    },
  };
}

/** The orders API v0 operations, with the public usage plans. */
export const orderOperations: RetailerOperation[] = [
  { name: 'getOrders', method: 'GET', path: 'orders/v0/orders', limit: { rate: 0.0167, burst: 20 }, run: getOrders },
  { name: 'getOrder', method: 'GET', path: 'orders/v0/orders/{orderId}', limit: { rate: 0.5, burst: 30 }, run: getOrder },
  { name: 'getOrderItems', method: 'GET', path: 'orders/v0/orders/{orderId}/orderItems', limit: { rate: 0.5, burst: 30 }, run: getOrderItems },
];
