// Stable ids of a few demo records, so the contract's examples and the docs' try-it name records that exist.

/** The demo merchant's first product (the contract examples' `dddddddd-...d001`). */
export const DEMO_PRODUCT_ID = 'dddddddd-dddd-4ddd-8ddd-ddddddddd001';
