#!/usr/bin/env node
// `npm run lint:openapi`: Redocly's own linter with redocly.yaml over openapi.yaml, through its
// library rather than its CLI, whose start-up banner about the Node version would make every green run look alarming.
import { formatProblems, lint, loadConfig } from '@redocly/openapi-core';

const ref = process.argv[2] ?? 'openapi.yaml';
const config = await loadConfig({ configPath: 'redocly.yaml' });
const problems = (await lint({ ref, config })).filter((p) => !p.ignored);
if (problems.length > 0) {
  formatProblems(problems, { format: 'stylish', maxProblems: 100, totals: { errors: 0, warnings: 0, ignored: 0 }, version: '' });
  process.exit(1);
}
console.log(`${ref}: valid, no warnings (Redocly recommended rules, redocly.yaml)`);
