import type { OperationResult } from './types.js';

/** The retailer's error body, shaped like the modelled seller API: `{ errors: [{ code, message, details? }] }`. */
export function retailerError(status: number, code: string, message: string, details?: string): OperationResult {
  return { status, body: { errors: [{ code, message, ...(details === undefined ? {} : { details }) }] } };
}

/** 400 InvalidInput, the seller API's answer to a bad parameter or body. */
export const invalidInput = (message: string): OperationResult => retailerError(400, 'InvalidInput', message);

/** 404 NotFound for a resource the seller does not have. */
export const notFoundError = (message: string): OperationResult => retailerError(404, 'NotFound', message);
