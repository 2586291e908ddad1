import type { FieldErrors } from './errors.js';

/**
 * Field errors for numbers the validator coerced from query text into Infinity or -Infinity (`1e309`, `Infinity`).
 * Ajv's coercion turns such text into a number and then skips its type and bound checks for non-finite values, so
 * `per_page=Infinity` would pass `maximum: 100`. A non-finite number is never a valid JSON number, so it is a 422.
 */
export function nonFiniteNumberErrors(values: unknown, prefix = ''): FieldErrors | undefined {
  const errors: FieldErrors = Object.create(null) as FieldErrors;
  collect(values, prefix, errors);
  return Object.keys(errors).length > 0 ? errors : undefined;
}

function collect(value: unknown, field: string, errors: FieldErrors): void {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    errors[field] = [`The ${field} field must be a finite number.`];
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) collect(inner, field ? `${field}.${key}` : key, errors);
  }
}
