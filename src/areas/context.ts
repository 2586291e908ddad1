import { randomUUID } from 'node:crypto';
import type { UserRecord } from './users/records.js';
import type { Config } from '../config.js';
import type { Collections } from './collections.js';
import type { Clock, World } from '../world.js';
import type { Retailer } from '../retailer/index.js';
import type { UploadStorage } from './products/uploads.js';
import type { SupplierCatalogues } from './sourcing/rules/supplier-catalogue.js';
import type { LoadedContract } from '../contract/document/load-contract.js';
import type { WorldResources } from '../world-resources.js';
import type { WorldObservations } from '../observe/world-observations.js';
import type { Worlds } from '../worlds.js';
import type { PreferResult } from '../knobs/prefer-header.js';
import type { MembershipRecord, MerchantRecord } from './merchants/records.js';
import { forbidden, notFound, unauthenticated } from '../http/errors.js';

/** What a handler may use besides its input: the world's collections and clock, the caller, and request facts. */
export interface Ctx {
  readonly world: World;
  readonly worlds: Worlds;
  /** The request journal and each world's coverage (the control plane reads them). */
  readonly observations: WorldObservations;
  readonly store: Collections;
  readonly clock: Clock;
  /** The world's simulated retailer (its rate buckets and generated data live beside the store). */
  readonly retailer: Retailer;
  /** The world's uploaded files. */
  readonly uploads: UploadStorage;
  /** The sandbox's supplier catalogues and scraping finds (they follow from ids alone, so reading them is pure). */
  readonly catalogues: SupplierCatalogues;
  /** The contract this sandbox serves, as it was read (the control plane stamps and checks workspace bundles with it). */
  readonly contract: LoadedContract;
  /** What the sandbox keeps for all its worlds, each made on first use and let go on runtime.close() (compiled checks). */
  readonly shared: WorldResources;
  /** The authenticated user; only operations with bearer security may read it. */
  readonly caller: UserRecord;
  readonly access: Access;
  /** The origin the request came to, e.g. http://127.0.0.1:4010: absolute links point back at it. */
  readonly baseUrl: string;
  /** The absolute request URL, query included: pagination builds its links from it. */
  readonly url: string;
  readonly config: Config;
  readonly operationId: string;
  /** The request's Prefer knobs, parsed once per request (no knobs where the operation reads none). */
  readonly prefer: PreferResult;
  newId(): string;
  /**
   * A new record's fields with what every record gets on creation: a new `id` first, then `fields`, then
   * `created_at` and `updated_at` (now, or `at` when the handler read the clock for other fields too).
   */
  newRecord<F extends object>(fields: F, at?: string): { id: string } & F & Timestamps;
}

const NO_KNOBS: PreferResult = Object.freeze({ ok: true, knobs: Object.freeze({ applied: '' }) });

/**
 * What a world keeps beside its store, as a cascade reaches it (from ctx: each is made only when touched), and its
 * clock, for the lazily applied outcomes a cascade must apply before it removes their source.
 */
export type BesideStore = Pick<Ctx, 'retailer' | 'uploads' | 'clock'>;

/** The creation and last-change times every stored record carries (ISO 8601). */
export interface Timestamps {
  created_at: string;
  updated_at: string;
}

/** What a world keeps beside its store, made on first use; what the sandbox keeps for all its worlds; its contract. */
export interface ResourceAccess {
  retailer(): Retailer;
  uploads(): UploadStorage;
  readonly catalogues: SupplierCatalogues;
  readonly contract: LoadedContract;
  readonly shared: WorldResources;
}

/** What createCtx is given: the world, the request's facts, and who to tell when the handler reads beyond its store. */
export interface CtxOptions {
  world: World;
  worlds: Worlds;
  observations: WorldObservations;
  /** What the world keeps beside its store and the sandbox shares, asked for when a handler first reaches for it. */
  resources: () => ResourceAccess;
  onImpure?: () => void;
  caller?: UserRecord;
  /** The origin of the request's absolute URLs, asked for only when a handler builds one (ctx.baseUrl, ctx.url). */
  originOf: () => string;
  /** The request's path and query, as sent (ctx.url is the origin and this). */
  pathAndQuery: string;
  config: Config;
  operationId: string;
  prefer?: PreferResult;
}

const pure = () => {};

// A class, not an object literal with getters: getters written in a literal are closures of that one call, so
// V8 makes a new hidden class for each ctx, and that old-generation hidden class keeps the request's objects alive
// through young-generation collections. On the prototype they are shared by every ctx.
class HandlerCtx implements Ctx {
  readonly world: World;
  readonly store: Collections;
  readonly config: Config;
  readonly operationId: string;
  readonly prefer: PreferResult;
  private accessOfCaller: Access | undefined;
  private origin: string | undefined;
  private resourceAccess: ResourceAccess | undefined;

  constructor(private readonly opts: CtxOptions) {
    this.world = opts.world;
    this.store = opts.world.store.collections;
    this.config = opts.config;
    this.operationId = opts.operationId;
    this.prefer = opts.prefer ?? NO_KNOBS;
  }

  get baseUrl(): string {
    return (this.origin ??= this.opts.originOf());
  }

  get url(): string {
    return this.baseUrl + this.opts.pathAndQuery;
  }

  private get resources(): ResourceAccess {
    return (this.resourceAccess ??= this.opts.resources());
  }

  get worlds(): Worlds {
    (this.opts.onImpure ?? pure)();
    return this.opts.worlds;
  }

  get observations(): WorldObservations {
    (this.opts.onImpure ?? pure)();
    return this.opts.observations;
  }

  get clock(): Clock {
    (this.opts.onImpure ?? pure)();
    return this.world.clock;
  }

  get retailer(): Retailer {
    (this.opts.onImpure ?? pure)();
    return this.resources.retailer();
  }

  get uploads(): UploadStorage {
    (this.opts.onImpure ?? pure)();
    return this.resources.uploads();
  }

  get catalogues(): SupplierCatalogues {
    return this.resources.catalogues;
  }

  get contract(): LoadedContract {
    return this.resources.contract;
  }

  get shared(): WorldResources {
    return this.resources.shared;
  }

  get caller(): UserRecord {
    return this.opts.caller ?? unauthenticated();
  }

  get access(): Access {
    return (this.accessOfCaller ??= new Access(this.store, this.opts.caller ?? unauthenticated()));
  }

  newId(): string {
    return this.world.ids?.next() ?? randomUUID();
  }

  newRecord<F extends object>(fields: F, at = this.world.clock.nowIso()): { id: string } & F & Timestamps {
    return { id: this.newId(), ...fields, created_at: at, updated_at: at };
  }
}

/**
 * The ctx of one handler call. `onImpure` is called when the handler reads something other than its store and
 * its input (the clock, the retailer, the uploads, the other worlds): its answer may then not be replayed.
 */
export function createCtx(opts: CtxOptions): Ctx {
  return new HandlerCtx(opts);
}

/**
 * Permission is membership: the caller sees and changes a merchant, and everything it owns, only as a member.
 * Unknown merchant -> 404; known but not a member -> 403 (the error handler answers 404 where the operation
 * documents no 403). The records a request names are checked with it before validation (resolveBindings, src/access/record-bindings.ts);
 * handlers use it for their own rules (only an owner may delete a merchant).
 */
export class Access {
  constructor(
    private readonly store: Collections,
    private readonly caller: UserRecord,
  ) {}

  /** The caller's membership in the merchant, if any. */
  membership(merchantId: string): MembershipRecord | undefined {
    return this.store.memberships.where('user_id', this.caller.id).find((m) => m.merchant_id === merchantId);
  }

  /**
   * The merchant, when the caller is one of its members. `what` is the kind of record the request named (the
   * merchant itself, or a record of it): where an operation documents no 403, a non-member hears the 404 an unknown
   * record of that kind gets.
   */
  member(merchantId: string, what = 'merchant'): MerchantRecord {
    const merchant = this.store.merchants.get(merchantId) ?? notFound('merchant');
    if (!this.membership(merchantId)) forbidden(undefined, what);
    return merchant;
  }

  /** The merchant, when the caller is one of its owners. */
  owner(merchantId: string): MerchantRecord {
    const merchant = this.member(merchantId);
    if (this.membership(merchantId)?.role !== 'owner') forbidden('Only an owner of the merchant may do this.');
    return merchant;
  }
}
