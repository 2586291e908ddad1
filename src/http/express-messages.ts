// Express gives every request and response its own prototype on arrival (Object.setPrototypeOf(req, app.request)).
// In V8 that re-prototyping makes each message's objects outlive the young-generation collections until a full
// collection: every request then promotes its garbage to the old generation, scavenges copy much more, and full
// collections come often (the pauses a request waits behind). Built from constructors whose prototype already is
// the app's, the messages are born as Express wants them, and Express's setPrototypeOf changes nothing.
import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type { Express } from 'express';

type MessageClasses = Required<Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'>>;

/** The request and response constructors for node:http's createServer whose instances have `app`'s prototypes. */
export function expressMessages(app: Pick<Express, 'request' | 'response'>): MessageClasses {
  // Plain functions: a class's `prototype` cannot be set to an existing object, and Node's own message
  // constructors are plain functions too, callable on a new `this`.
  function Request(this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>) {
    IncomingMessage.apply(this, args);
  }
  Request.prototype = app.request;
  function Response(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>) {
    ServerResponse.apply(this, args);
  }
  Response.prototype = app.response;
  return {
    IncomingMessage: Request as unknown as typeof IncomingMessage,
    ServerResponse: Response as unknown as typeof ServerResponse,
  };
}
