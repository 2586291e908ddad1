import type { FieldErrors } from './errors.js';

/** One error as express-openapi-validator reports it: an instance path like /body/costs/0/cost/value. */
export interface ValidatorError {
  path?: string;
  message?: string;
  errorCode?: string;
}

/** Where a validator error sits: the request part and the Laravel-style field key inside it. */
export interface ErrorLocation {
  part: 'body' | 'query' | 'params' | 'headers' | 'other';
  field: string;
}

export function locate(path = ''): ErrorLocation {
  const segments = path
    .replace(/^[./]+/, '')
    .split(/[./]|\[(\d+)\]/)
    .filter(Boolean);
  const [head, ...rest] = segments;
  const part = (['body', 'query', 'params', 'headers'] as const).find((p) => p === head) ?? 'other';
  const field = (part === 'other' ? segments : rest).join('.');
  return { part, field: field || (part === 'other' ? 'request' : part) };
}

/** Whether a refusal (the validator's, with its `errors`) names this field of this part of the request. */
export function refusesField(error: unknown, part: ErrorLocation['part'], field: string): boolean {
  const errors = (error as { errors?: unknown } | undefined)?.errors;
  return (
    Array.isArray(errors) &&
    errors.some((e: ValidatorError) => {
      const location = locate(e?.path);
      return location.part === part && location.field === field;
    })
  );
}

/** Turns the validator's errors into Laravel-style field errors: `{ "costs.0.cost.value": ["The ... field must be >= 0."] }`. */
export function toFieldErrors(errors: ValidatorError[]): FieldErrors {
  // Keys come from the request (`constructor`, `__proto__`, `toString`): a plain object would hand back its inherited members.
  const out: FieldErrors = Object.create(null) as FieldErrors;
  for (const error of errors) {
    const { location, message } = describeError(error);
    (out[location.field] ??= []).push(message);
  }
  return out;
}

/** One validator error: where it sits and the sentence a 422 says of it. */
export function describeError(error: ValidatorError): { location: ErrorLocation; message: string } {
  const location = locate(error.path);
  return { location, message: sentence(location.field, error) };
}

function sentence(field: string, error: ValidatorError): string {
  const keyword = error.errorCode?.split('.')[0];
  if (keyword === 'required') return `The ${field} field is required.`;
  if (keyword === 'additionalProperties') return `The ${field} field is not part of the contract.`;
  if (/^Unknown query parameter/.test(error.message ?? '')) return `The ${field} query parameter is not part of the contract.`;
  // Laravel's wording; quoting the regex back at a client helps nobody (the contract's description says what is allowed).
  if (keyword === 'pattern') return `The ${field} field format is invalid.`;
  const message = (error.message ?? 'is invalid').replace(/^must NOT/, 'must not');
  return `The ${field} field ${message}.`;
}
