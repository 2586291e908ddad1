import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { errorHandler } from '../../src/http/error-handler.js';

// An error whose every property read throws, so describing it fails inside the error handler itself.
const hostile = new Proxy(
  {},
  {
    get() {
      throw new Error('reading this error fails');
    },
  },
);

function appThrowing(error: unknown) {
  const lines: string[] = [];
  const app = express();
  app.get('/boom', () => {
    throw error;
  });
  app.use(errorHandler((line) => lines.push(line)));
  return { app, lines };
}

describe('last-resort error handler', () => {
  it('When describing the error throws inside the error handler, then 500 JSON { message } and no HTML or stack', async () => {
    const { app, lines } = appThrowing(hostile);
    const res = await request(app).get('/boom');
    expect(res.status).toBe(500);
    expect(res.type).toBe('application/json');
    expect(res.body).toEqual({ message: 'Server Error' });
    expect(res.text).not.toMatch(/<html|at .*\.ts/i);
    expect(lines).toHaveLength(1);
  });

  it('When a plain bug is thrown, then 500 JSON { message } and the stack only in the log', async () => {
    const { app, lines } = appThrowing(new TypeError('x.push is not a function'));
    const res = await request(app).get('/boom');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: 'Server Error' });
    expect(lines[0]).toMatch(/x\.push is not a function/);
  });
});
