// The memory limiter of rate-limiter-flexible, imported by its own file: the package's index loads the code of
// every store it supports (Redis, Mongo, SQL, etc.), which would add tens of milliseconds to every start.
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
  import { RateLimiterMemory } from 'rate-limiter-flexible';
  export = RateLimiterMemory;
}
