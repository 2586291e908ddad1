/** The package's programmatic API: start a sandbox over HTTP, or build the Express app for supertest. */
export { startSandbox, type RunningSandbox, type StartSandboxOptions } from './start-sandbox.js';
export { StartOptionsError } from './start-options.js';
export { createApp } from './app.js';
export { createRuntime, type Runtime, type RuntimeOptions } from './runtime.js';
// The contract compiled once, for a process that starts several sandboxes (startSandbox's and createRuntime's `contract`).
export { compileContract, type CompiledContract } from './compiled-contract.js';
export { createServer } from './server.js';
export { defaultConfig, type Config } from './config.js';
export { openWorld } from './world.js';
// What every world is made of (the areas' collections and seeders): openWorld is given it.
export { worldModel } from './areas/world-model.js';
export { Worlds, worldsOptions } from './worlds.js';
export { MemoryPersistence } from './store/store.js';
export { DEMO_USERS, demoTokens } from './sandbox/demo-tokens.js';
