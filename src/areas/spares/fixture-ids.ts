// Ids of the records seeded for the contract's destructive examples (delete, remove, revoke), so trying one in the
// docs removes a spare and every other example still finds what it names, in any order. They start with `de1e7e`.

/** A merchant of the demo owner with nothing in it: deleteMerchant's example. */
export const SPARE_MERCHANT_ID = 'de1e7e00-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
/** A user who is a member of the demo merchant and nothing else: removeMerchantMember's example. */
export const SPARE_MEMBER_USER_ID = 'de1e7e00-2222-4222-8222-222222222222';
/** An unconnected channel of the demo merchant: deleteChannel's example. */
export const SPARE_CHANNEL_ID = 'de1e7e00-cccc-4ccc-8ccc-ccccccccc001';
/** A connected channel of the demo merchant: revokeChannelAuthorization's example. */
export const REVOCABLE_CHANNEL_ID = 'de1e7e00-cccc-4ccc-8ccc-ccccccccc002';
/** A product of the demo merchant without images, identifiers or supplier items: deleteProduct's example. */
export const SPARE_PRODUCT_ID = 'de1e7e00-dddd-4ddd-8ddd-ddddddddd001';
/** An identifier of the demo product: deleteProductIdentifier's example. */
export const SPARE_PRODUCT_IDENTIFIER_ID = 'de1e7e00-9b8e-4b6c-8d4c-000000000001';
/** A supplier of the demo merchant without items or scraping requests: deleteSupplier's example. */
export const SPARE_SUPPLIER_ID = 'de1e7e00-e1e1-4e1e-8e1e-e1e1e1e1e001';
/** An item of the demo supplier that no forecast uses: deleteSupplierItem's example. */
export const SPARE_SUPPLIER_ITEM_ID = 'de1e7e00-e2e2-4e2e-8e2e-e2e2e2e2e001';
/** An identifier of the demo supplier item: deleteSupplierItemIdentifier's example. */
export const SPARE_SUPPLIER_ITEM_IDENTIFIER_ID = 'de1e7e00-a260-4a0b-8b3e-000000000001';
