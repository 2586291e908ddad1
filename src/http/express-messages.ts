// Express gives every request and response its own prototype on arrival (Object.setPrototypeOf(req, app.request)).
// In V8 that re-prototyping makes each message's objects outlive the young-generation collections until a full
// collection: every request then promotes its garbage to the old generation, scavenges copy much more, and full
// collections come often (the pauses a request waits behind). Messages born with the app's prototypes avoid it:
// Express's setPrototypeOf then changes nothing.
//
// They are instances of subclasses of Node's own message classes, and those subclasses' prototypes become the app's
// request and response prototypes. A plain function that calls Node's constructor on `this` would also give the
// right prototype, but V8 then sizes the objects for that function's empty body: the many fields Node's constructor
// adds live outside the object, and every read of them, on every request (replayed ones too), is slower.
import type { ServerOptions } from 'node:http';
import type { Express } from 'express';
import { IncomingMessage, ServerResponse } from '../node-http.js';

type MessageClasses = Required<Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'>>;

/**
 * The request and response classes for node:http's createServer whose instances have `app`'s prototypes. The app's
 * `request` and `response` become those classes' prototypes, carrying the same methods and accessors (Express's,
 * and the app's own `app`), so everything Express and the handlers read is where it was.
 */
export function expressMessages(app: Pick<Express, 'request' | 'response'>): MessageClasses {
  class Request extends IncomingMessage {}
  class Response extends ServerResponse {}
  app.request = adopt(Request.prototype, app.request, IncomingMessage.prototype);
  app.response = adopt(Response.prototype, app.response, ServerResponse.prototype);
  return { IncomingMessage: Request, ServerResponse: Response as MessageClasses['ServerResponse'] };
}

/**
 * Gives `target` (a subclass's prototype) what `prototype` holds above Node's `base` prototype: Express's methods and
 * accessors and the app's own properties. Walked as a chain, so a prototype adopted once can be adopted again.
 */
function adopt<T extends object>(target: object, prototype: T, base: object): T {
  const chain: object[] = [];
  for (let p: object | null = prototype; p && p !== base; p = Object.getPrototypeOf(p) as object | null) chain.unshift(p);
  for (const p of chain) {
    const { constructor: _ownClass, ...descriptors } = Object.getOwnPropertyDescriptors(p);
    Object.defineProperties(target, descriptors);
  }
  return target as T;
}
