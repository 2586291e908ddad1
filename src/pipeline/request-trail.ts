// Why a request was answered as it was, in the service's order: the step that answered (route, token, the records
// it names, its input, the knobs, the handler, the answer's own check, a budget), what routing found, the record a
// 404/403 names, a 422's field errors beside the values sent and the contract's rules, the knobs applied. The
// pipeline's steps note in the request's state where they are and what they threw (src/pipeline/handle-request.ts);
// the trail is made from that once, when the answer is observed, and the journal keeps it (an inspector reads it).
import type { Request, Response } from 'express';
import type { components } from '../contract/document/generated.js';
import { deref, isObj, listOperations, type ContractDocument } from '../contract/document/load-contract.js';
import { ForbiddenError, HttpError } from '../http/errors.js';
import { describeError, type ValidatorError } from '../http/validation-errors.js';
import type { PreferResult } from '../knobs/prefer-header.js';
import { MemoryRefused } from '../memory-reservations.js';
import { QuotaExceeded } from '../store/quota-exceeded.js';
import { bodySchemas, schemaAt, valueAt } from './one-of-errors.js';
import type { RequestState } from './request-state.js';

/** One request's trail, as the journal shows it (the contract's SandboxRequestTrail). */
export type Trail = components['schemas']['SandboxRequestTrail'];
/** A step of the pipeline, as a trail names the one that answered. */
export type TrailStep = Trail['answered_by'];
type FieldError = NonNullable<Trail['field_errors']>[number];
type Rule = NonNullable<FieldError['rule']>;

/** A trail names at most this many field errors (the validator reports every one it finds). */
export const MAX_TRAIL_FIELD_ERRORS = 100;

/** The answers of a budget (too large, throttled, memory short) when a step before the handler refused. */
const BUDGET_STATUSES = new Set([413, 429, 503]);

// The route of every request that matched an operation: one object, never changed, shared by their trails.
const MATCHED: Trail['route'] = Object.freeze({ matched: true });

/** Swagger UI's deep link to an operation (its createDeepLinkPath: blanks as %20), under its first tag. */
export function docsAnchor(tag: string | undefined, operationId: string): string {
  const part = (text: string) => text.trim().replace(/\s/g, '%20');
  return `#/${part(tag ?? 'default')}/${part(operationId)}`;
}

/** Trails of the operations of one contract. */
export interface RequestTrails {
  /** The trail of a request the pipeline saw, from its state; undefined for one it never saw (a page, an image). */
  of(req: Request, res: Response): Trail | undefined;
}

// Where a validator error's part of the request is declared: the parameter's `in`, as the validator's path names it.
const PARTS: Record<string, string> = { path: 'params', query: 'query', header: 'headers' };

/** What the contract says of each operation that a trail names: its anchor in /docs, the schemas of its input. */
export function requestTrails(doc: ContractDocument): RequestTrails {
  const anchors = new Map<string, string>();
  /** The trails of plain answers, by operation, answering step and response check (bounded by the contract). */
  const plainTrails = new Map<string, Trail>();
  const parameters = new Map<string, Map<string, unknown>>();
  for (const op of listOperations(doc)) {
    anchors.set(op.operationId, docsAnchor(op.tags[0], op.operationId));
    const pathItem = doc.paths[op.path] as { parameters?: unknown[] };
    const byName = new Map<string, unknown>();
    for (const declared of [...(pathItem.parameters ?? []), ...((op.operation.parameters as unknown[] | undefined) ?? [])]) {
      const p = deref(doc, declared);
      if (isObj(p) && typeof p.name === 'string' && typeof p.in === 'string' && PARTS[p.in]) {
        byName.set(`${PARTS[p.in]}.${p.in === 'header' ? p.name.toLowerCase() : p.name}`, p.schema);
      }
    }
    parameters.set(op.operationId, byName);
  }
  const bodies = bodySchemas(doc);

  /** The schema a validator error's path points into: the body's, or the named parameter's. */
  const schemaOf = (operationId: string, part: string, segments: string[]): Record<string, unknown> | undefined => {
    if (part === 'body') return schemaAt(doc, bodies.get(operationId), segments);
    const [name, ...rest] = segments;
    if (name === undefined) return undefined;
    const declared = parameters.get(operationId)?.get(`${part}.${part === 'headers' ? name.toLowerCase() : name}`);
    return declared === undefined ? undefined : schemaAt(doc, declared, rest);
  };

  /** The validator's errors, each with the value sent and the rule it broke (its bound read from the contract). */
  const validatorFieldErrors = (req: Request, state: RequestState, errors: ValidatorError[]): FieldError[] => {
    const sources = { body: req.body as unknown, query: req.query as unknown, params: state.operation?.pathParams, headers: req.headers };
    return errors.slice(0, MAX_TRAIL_FIELD_ERRORS).map((error) => {
      const { location, message } = describeError(error);
      const segments = location.field.split('.');
      const part = location.part;
      const field = part === 'other' ? location.field : `${part}.${location.field}`;
      const keyword = error.errorCode?.split('.')[0];
      const value = part === 'other' ? undefined : valueAt(sources[part], part === 'headers' ? [segments[0]!.toLowerCase(), ...segments.slice(1)] : segments);
      const schema = part === 'other' || !state.operation ? undefined : schemaOf(state.operation.id, part, segments);
      return {
        field,
        message,
        ...(value !== undefined && { value }),
        ...(keyword !== undefined && { rule: { keyword, params: ruleParams(keyword, schema, segments) } }),
      };
    });
  };

  /** A 422's field errors: the validator's (with values and rules), or an HttpError's own (a handler's rule, a knob). */
  const fieldErrors = (req: Request, state: RequestState, error: unknown): FieldError[] | undefined => {
    if (error instanceof HttpError) {
      if (!error.errors) return undefined;
      const out: FieldError[] = [];
      for (const [field, messages] of Object.entries(error.errors)) {
        for (const message of messages) {
          if (out.length === MAX_TRAIL_FIELD_ERRORS) return out;
          // A handler names body fields (or, for a number the query cannot hold, query parameters) by their own key.
          const segments = field.split('.');
          const value = valueAt(req.body, segments) ?? valueAt(req.query, segments);
          out.push({ field, message, ...(value !== undefined && { value }) });
        }
      }
      return out;
    }
    const found = error as { status?: number; errors?: unknown };
    return found?.status === 400 && Array.isArray(found.errors) ? validatorFieldErrors(req, state, found.errors as ValidatorError[]) : undefined;
  };

  return {
    of(req, res) {
      const state = req.state;
      if (state?.step === undefined) return undefined;
      const error = state.refusal;
      const status = res.statusCode;
      const step = answeredBy(state, error, status);
      const operationId = state.operation?.id;
      const anchor = operationId === undefined ? undefined : anchors.get(operationId);
      const allow = state.operation === undefined && error instanceof HttpError ? error.headers?.Allow : undefined;
      const record =
        state.step === 'record' && state.naming && error instanceof HttpError && (status === 404 || status === 403)
          ? { ...state.naming, outcome: error instanceof ForbiddenError ? ('not_member' as const) : ('unknown' as const) }
          : undefined;
      const errors = status === 422 && error !== undefined ? fieldErrors(req, state, error) : undefined;
      const responseCheck = state.responseCheck ?? 'not_checked';
      // A matched operation's trail that names no record, field error or knob is one of a few per operation: one
      // frozen object each, so the journal, which keeps a trail once per object, redacts and measures it once.
      if (state.operation && operationId !== undefined && !record && !errors?.length && !state.prefer) {
        const key = `${operationId}\n${step}\n${responseCheck}`;
        let plain = plainTrails.get(key);
        if (plain === undefined) {
          plain = Object.freeze({ answered_by: step, route: MATCHED, response_check: responseCheck, ...(anchor !== undefined && { docs_anchor: anchor }) });
          plainTrails.set(key, plain);
        }
        return plain;
      }
      return {
        answered_by: step,
        route: state.operation ? MATCHED : { matched: false, ...(allow !== undefined && { allow: allow.split(',').map((m) => m.trim()) }) },
        ...(record && { record }),
        ...(errors && errors.length > 0 && { field_errors: errors }),
        ...(state.prefer && { prefer: preferOf(state.prefer) }),
        response_check: state.responseCheck ?? 'not_checked',
        ...(anchor !== undefined && { docs_anchor: anchor }),
      };
    },
  };
}

/**
 * The step that answered: the one that threw (a budget's refusal before the handler is `limit`, whichever step
 * counted it), the knobs when `Prefer: code` answered without the handler, the response check when the answer
 * broke the contract, else the handler.
 */
function answeredBy(state: RequestState, error: unknown, status: number): TrailStep {
  if (state.responseCheck === 'failed') return 'response_check';
  const step = state.step ?? 'route';
  if (error === undefined) return step === 'prefer' ? 'prefer' : 'handler';
  if (error instanceof MemoryRefused || error instanceof QuotaExceeded) return 'limit';
  if (step !== 'handler' && step !== 'prefer' && BUDGET_STATUSES.has(status)) return 'limit';
  return step;
}

/** The knobs as the trail names them. */
function preferOf(prefer: PreferResult): NonNullable<Trail['prefer']> {
  if (!prefer.ok) return { error: prefer.error.message, ...(prefer.strict && { strict: true }) };
  const { code, delay, retailerFault, strict, applied } = prefer.knobs;
  return {
    ...(code !== undefined && { code }),
    ...(delay !== undefined && { delay }),
    ...(retailerFault !== undefined && { retailer_fault: retailerFault }),
    ...(strict && { strict: true }),
    ...(applied !== '' && { applied }),
  };
}

const BOUNDS = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);

/** A rule's parameters under Ajv's names, read from the schema the value broke (none past what it declares). */
function ruleParams(keyword: string, schema: Record<string, unknown> | undefined, segments: string[]): Rule['params'] {
  const last = segments[segments.length - 1];
  if (keyword === 'required') return { missingProperty: last };
  if (keyword === 'additionalProperties') return { additionalProperty: last };
  if (schema === undefined) return {};
  const named = (name: string, value: unknown): Rule['params'] => (value === undefined ? {} : { [name]: value });
  if (BOUNDS.has(keyword)) return named('limit', schema[keyword]);
  if (keyword === 'enum') return named('allowedValues', schema.enum);
  if (keyword === 'const') return named('allowedValue', schema.const);
  if (keyword === 'type' || keyword === 'format' || keyword === 'pattern') return named(keyword, schema[keyword]);
  return {};
}
