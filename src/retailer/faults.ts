import { retailerError } from './errors.js';
import type { InjectedFault, OperationResult, RetailerFailure } from './types.js';

export type { InjectedFault };

/** What the retailer answers when asked to fail: the result, extra headers, and the failure the relay reacts to. */
export interface FaultAnswer {
  result: OperationResult;
  headers: Record<string, string>;
  failure?: RetailerFailure;
}

/**
 * The retailer failing on request, after it accepted the access token and before the operation runs (so it changes
 * nothing and takes no token from the rate bucket): throttled for a second, no answer in time, or its own 500.
 */
export function injectedFault(fault: InjectedFault): FaultAnswer {
  switch (fault) {
    case 'throttle':
      return {
        result: retailerError(429, 'QuotaExceeded', 'You exceeded your quota for the requested resource.'),
        headers: { 'retry-after': '1' },
        failure: 'throttled',
      };
    case 'timeout':
      return { result: { status: 504, body: undefined }, headers: {}, failure: 'timeout' };
    case 'error':
      return { result: retailerError(500, 'InternalFailure', 'We encountered an internal error. Please try again.'), headers: {} };
  }
}
