import { unprocessable, type FieldErrors } from '../../http/errors.js';

/** Answers 422 with every collected field error at once (checks first, then writes), so a client fixes its request in one go. */
export function failOn(errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) unprocessable(errors);
}
