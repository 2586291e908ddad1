/** The seller API's attribute layout for the three things a listing always shows: name, price and quantity. */
export function listingAttributes(name: string, price: number, quantity: number, fulfillment: string): Record<string, unknown> {
  return {
    item_name: [{ value: name }],
    purchasable_offer: [{ currency: 'USD', our_price: [{ schedule: [{ value_with_tax: price }] }] }],
    fulfillment_availability: [{ fulfillment_channel_code: fulfillment, quantity }],
    condition_type: [{ value: 'new_new' }],
  };
}

const first = (attrs: Record<string, unknown>, name: string): Record<string, unknown> | undefined => {
  const value = attrs[name];
  return Array.isArray(value) && typeof value[0] === 'object' && value[0] !== null ? (value[0] as Record<string, unknown>) : undefined;
};

/** Reads name, price, quantity and fulfillment back from attributes, tolerating whatever a client PUT. */
export function readListingAttributes(attrs: Record<string, unknown>) {
  const offer = first(attrs, 'purchasable_offer');
  const ourPrice = Array.isArray(offer?.our_price) ? (offer.our_price[0] as Record<string, unknown> | undefined) : undefined;
  const schedule = Array.isArray(ourPrice?.schedule) ? (ourPrice.schedule[0] as Record<string, unknown> | undefined) : undefined;
  const availability = first(attrs, 'fulfillment_availability');
  const name = first(attrs, 'item_name')?.value;
  return {
    name: typeof name === 'string' ? name : null,
    price: typeof schedule?.value_with_tax === 'number' ? schedule.value_with_tax : null,
    quantity: typeof availability?.quantity === 'number' ? availability.quantity : 0,
    fulfillment: typeof availability?.fulfillment_channel_code === 'string' ? availability.fulfillment_channel_code : 'DEFAULT',
  };
}
