// Barcodes with real check digits: imports decide "found" by validity, so generated items must carry valid codes.

import type { IdentifierType } from './catalog-records.js';

/** GS1 mod-10 check digit of the digits before it (UPC, EAN, GTIN and ISBN-13 share it). */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = Number(body[body.length - 1 - i]);
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** ISBN-10 check character (0-9 or X) of its first nine digits. */
export function isbn10CheckChar(body: string): string {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(body[i]) * (10 - i);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

const GS1_LENGTHS: Record<Exclude<IdentifierType, 'ISBN'>, readonly number[]> = {
  UPC: [12],
  EAN: [13],
  GTIN: [8, 12, 13, 14],
};

/** Whether a value is a well-formed code of its type with a valid check digit (the import's "found" rule). */
export function isValidIdentifier(type: IdentifierType, value: string): boolean {
  if (type === 'ISBN') {
    if (/^97[89]\d{10}$/.test(value)) return gs1CheckDigit(value.slice(0, 12)) === Number(value[12]);
    if (/^\d{9}[\dX]$/.test(value)) return isbn10CheckChar(value) === value[9];
    return false;
  }
  if (!/^\d+$/.test(value) || !GS1_LENGTHS[type].includes(value.length)) return false;
  return gs1CheckDigit(value.slice(0, -1)) === Number(value[value.length - 1]);
}

/** Completes a digit body with its GS1 check digit. */
export function withGs1Check(body: string): string {
  return body + String(gs1CheckDigit(body));
}
