import { describe, expect, it } from 'vitest';
import { gs1CheckDigit, isValidIdentifier, isbn10CheckChar } from '../../src/areas/marketplaces/identifier-codes.js';

describe('identifier check digits', () => {
  it('When well-known codes are checked, then their check digits agree', () => {
    expect(gs1CheckDigit('03600029145')).toBe(2); // UPC-A 036000291452
    expect(isValidIdentifier('UPC', '036000291452')).toBe(true);
    expect(isValidIdentifier('EAN', '4006381333931')).toBe(true);
    expect(isValidIdentifier('ISBN', '9780306406157')).toBe(true);
    expect(isbn10CheckChar('030640615')).toBe('2');
    expect(isValidIdentifier('ISBN', '0306406152')).toBe(true);
    expect(isValidIdentifier('GTIN', '96385074')).toBe(true); // GTIN-8
  });

  it('When a digit is wrong, the length is wrong or letters appear, then the code is invalid', () => {
    expect(isValidIdentifier('UPC', '036000291453')).toBe(false);
    expect(isValidIdentifier('UPC', '4006381333931')).toBe(false);
    expect(isValidIdentifier('EAN', '40063813339A1')).toBe(false);
    expect(isValidIdentifier('ISBN', '9780306406158')).toBe(false);
    expect(isValidIdentifier('GTIN', '')).toBe(false);
  });
});
