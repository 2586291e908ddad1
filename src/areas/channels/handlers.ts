import type { Handlers } from '../handler-map.js';
import { channelResourceHandlers } from './channel-handlers.js';
import { channelControlHandlers } from './control-handlers.js';
import { relayHandlers } from './relay-handlers.js';

/** Every operation of the Channels area, plus its two sandbox control-plane operations. */
export const channelHandlers = {
  ...channelResourceHandlers,
  ...relayHandlers,
  ...channelControlHandlers,
} satisfies Partial<Handlers>;
