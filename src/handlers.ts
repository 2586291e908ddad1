import type { Handlers } from './areas/handler-map.js';
import { channelHandlers } from './areas/channels/handlers.js';
import { forecastingHandlers } from './areas/forecasting/handlers.js';
import { marketplaceHandlers } from './areas/marketplaces/handlers.js';
import { merchantHandlers } from './areas/merchants/handlers.js';
import { productHandlers } from './areas/products/handlers.js';
import { sourcingHandlers } from './areas/sourcing/handlers.js';
import { userHandlers } from './areas/users/handlers.js';
import { sandboxHandlers } from './sandbox/handlers.js';

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
} satisfies Handlers;
