import type { Handler, Handlers, OperationId } from './contract/handler-map.js';
import { channelHandlers } from './areas/channels/handlers.js';
import { forecastingHandlers } from './areas/forecasting/handlers.js';
import { marketplaceHandlers } from './areas/marketplaces/handlers.js';
import { merchantHandlers } from './areas/merchants/handlers.js';
import { productHandlers } from './areas/products/handlers.js';
import { sourcingHandlers } from './areas/sourcing/handlers.js';
import { userHandlers } from './areas/users/handlers.js';
import { httpError } from './http/errors.js';
import { sandboxHandlers } from './sandbox/handlers.js';

/**
 * Operations whose area has not landed yet. They answer 501 with a message that says so; a test prints this
 * list, and it must be empty once every area is built.
 */
export const NOT_YET_IMPLEMENTED = [
] as const satisfies readonly OperationId[];

const pending = Object.fromEntries(
  NOT_YET_IMPLEMENTED.map((id) => [id, (() => httpError(501, `${id} is not implemented in the sandbox yet.`)) as Handler<OperationId>]),
) as { [K in (typeof NOT_YET_IMPLEMENTED)[number]]: Handler<K> };

/** Every operation's handler, checked by the compiler against the contract's operationIds. */
export const handlers = {
  ...merchantHandlers,
  ...marketplaceHandlers,
  ...forecastingHandlers,
  ...productHandlers,
  ...sourcingHandlers,
  ...channelHandlers,
  ...userHandlers,
  ...sandboxHandlers,
  ...pending,
} satisfies Handlers;
