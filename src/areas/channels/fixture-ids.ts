// Stable ids of the demo channels, so the contract's examples, the README, docs/ and the docs page's try-it name channels that exist.

/** The demo merchant's connected channel: relayed calls work at once with demo-owner-token. */
export const DEMO_CONNECTED_CHANNEL_ID = 'cccccccc-cccc-4ccc-8ccc-ccccccccc001';
/** The demo merchant's channel without connection data, for trying the authorization flow. */
export const DEMO_UNCONNECTED_CHANNEL_ID = 'cccccccc-cccc-4ccc-8ccc-ccccccccc002';
/** The rival merchant's connected channel, which the demo users may not touch. */
export const RIVAL_CHANNEL_ID = 'cccccccc-cccc-4ccc-8ccc-ccccccccc003';
