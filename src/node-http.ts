// node:http as CommonJS code gets it. An ESM `import ... from 'node:http'` makes Node build the module's ESM face,
// which reads every export once, the lazily loaded ones too (fetch's undici behind WebSocket and EventSource): a
// large module the sandbox never uses, loaded and compiled at every start. process.getBuiltinModule (a public API)
// returns the module itself and leaves those exports unread.
const http = process.getBuiltinModule('node:http');

export const { createServer, IncomingMessage, ServerResponse } = http;
