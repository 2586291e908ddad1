/** A marketplace the simulated retailer runs; ids are the public ones integrators already use. */
export interface RetailerMarketplace {
  id: string;
  name: string;
  countryCode: string;
  defaultCurrencyCode: string;
  defaultLanguageCode: string;
  domainName: string;
}

const KNOWN: RetailerMarketplace[] = [
  { id: 'ATVPDKIKX0DER', name: 'Amazon.com', countryCode: 'US', defaultCurrencyCode: 'USD', defaultLanguageCode: 'en_US', domainName: 'www.amazon.com' },
  { id: 'A2EUQ1WTGCTBG2', name: 'Amazon.ca', countryCode: 'CA', defaultCurrencyCode: 'CAD', defaultLanguageCode: 'en_CA', domainName: 'www.amazon.ca' },
  { id: 'A1AM78C64UM0Y8', name: 'Amazon.com.mx', countryCode: 'MX', defaultCurrencyCode: 'MXN', defaultLanguageCode: 'es_MX', domainName: 'www.amazon.com.mx' },
  { id: 'A1F83G8C2ARO7P', name: 'Amazon.co.uk', countryCode: 'GB', defaultCurrencyCode: 'GBP', defaultLanguageCode: 'en_GB', domainName: 'www.amazon.co.uk' },
  { id: 'A1PA6795UKMFR9', name: 'Amazon.de', countryCode: 'DE', defaultCurrencyCode: 'EUR', defaultLanguageCode: 'de_DE', domainName: 'www.amazon.de' },
];

/** The marketplace a channel uses when its connection data names none. */
export const DEFAULT_MARKETPLACE_ID = 'ATVPDKIKX0DER';

/** The marketplace with that id; an id the sandbox does not know still works, as a US-like marketplace. */
export function marketplaceById(id: string): RetailerMarketplace {
  return KNOWN.find((m) => m.id === id) ?? { ...KNOWN[0]!, id, name: `Marketplace ${id}` };
}

/** The marketplaces a channel's seller participates in: its own first, then the North American unified account. */
export function participations(homeId: string): RetailerMarketplace[] {
  const ids = [homeId, ...['ATVPDKIKX0DER', 'A2EUQ1WTGCTBG2', 'A1AM78C64UM0Y8'].filter((id) => id !== homeId)];
  return ids.map(marketplaceById);
}
