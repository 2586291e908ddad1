import express, { type RequestHandler } from 'express';
import { readsJsonBody } from '../contract/body-routes.js';
import { matchedOperationId } from '../contract/document/operation-facts.js';
import type { Runtime } from '../runtime.js';
import { blankJsonIsNoBody } from '../http/required-body.js';

/**
 * The JSON body parser of the pipeline, with the limit the matched operation declares: BODY_LIMIT_BYTES, or
 * BUNDLE_MAX_BYTES for one that takes a workspace bundle. Both count after decompression; past it, 413 naming it.
 */
export function jsonBodyParser({ contract, config, operations }: Pick<Runtime, 'contract' | 'config' | 'operations'>): RequestHandler {
  const type = readsJsonBody(contract);
  const normal = blankJsonIsNoBody(express.json({ limit: config.bodyLimit, type }));
  const bundle = blankJsonIsNoBody(express.json({ limit: config.bundleMaxBytes, type }));
  return (req, res, next) => (operations.get(matchedOperationId(req) ?? '')?.bodyLimit === 'bundle' ? bundle : normal)(req, res, next);
}
