// A small GitHub Actions runner for the README's workflow and this repository's composite action (action.yml): it
// runs `run:` steps as Actions does (bash --noprofile --norc -eo pipefail, step env, working-directory, $GITHUB_ENV and
// $GITHUB_OUTPUT), expands a `uses:` of this repository into action.yml's steps with their inputs, evaluates the `if:`
// conditions these files use, and does actions/upload-artifact's work by copying the files into a folder. Checkout
// and setup-node are no-ops: the job's folder is the checkout, this Node is on PATH.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { load as parse } from 'js-yaml';
import { projectRoot } from '../../src/paths.js';
import { userEnv } from './server-process.js';

export interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string | number | boolean>;
  'working-directory'?: string;
}

export interface StepResult {
  /** The step's name (or its run/uses); a step of the action is prefixed with `action: `. */
  step: string;
  ran: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
}

interface ActionFile {
  inputs: Record<string, { default?: string; required?: boolean }>;
  runs: { using: string; steps: Step[] };
}

/** This repository's action, as a workflow names it (`commerce-operations/sandbox@<ref>`). */
export const ACTION_REPOSITORY = 'commerce-operations/sandbox';

export const actionFile = (): ActionFile => parse(readFileSync(join(projectRoot, 'action.yml'), 'utf8')) as ActionFile;

export interface RunnerContext {
  /** The job's checkout: run steps start here. */
  dir: string;
  /** runner.temp */
  temp: string;
  /** Where upload-artifact copies what it uploads. */
  artifacts: string;
  /** The job's env. */
  env?: Record<string, string>;
  /** A last word on each run step's script (a port swapped for a free one, say). */
  rewrite?: (script: string) => string;
}

/** A `${{ }}` expression of these files: inputs.x, runner.temp; anything else is refused so a test cannot pass by accident. */
function expand(text: string, inputs: Record<string, string>, ctx: RunnerContext): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    if (expr === 'runner.temp') return ctx.temp;
    const input = /^inputs\.([\w-]+)$/.exec(expr);
    if (input) return inputs[input[1]!] ?? '';
    throw new Error(`an expression this runner does not know: ${expr}`);
  });
}

/** An `if:` of these files: terms joined by &&, each a status function or `steps.<id>.outcome == '<outcome>'`. */
function holds(condition: string | undefined, failed: boolean, outcomes: Map<string, string>): boolean {
  const expr = (condition ?? 'success()').replace(/^\$\{\{\s*|\s*\}\}$/g, '').trim();
  return expr.split('&&').every((raw) => {
    const term = raw.trim();
    const known: Record<string, boolean> = { 'success()': !failed, 'failure()': failed, 'always()': true, '!cancelled()': true };
    if (term in known) return known[term]!;
    const outcome = /^steps\.([\w-]+)\.outcome == '(\w+)'$/.exec(term);
    if (outcome) return (outcomes.get(outcome[1]!) ?? 'skipped') === outcome[2];
    throw new Error(`a condition this runner does not know: ${term}`);
  });
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // 'close', not 'exit': a background process (the sandbox) keeps no pipe of the step open, its output goes to its log.
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** KEY=value lines of a $GITHUB_ENV / $GITHUB_OUTPUT file. */
const keyValues = (file: string): Record<string, string> =>
  existsSync(file)
    ? Object.fromEntries(
        readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => line.includes('='))
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      )
    : {};

/** Runs `steps` in order; answers each step's result (the action's steps among them). */
export async function runSteps(steps: Step[], ctx: RunnerContext): Promise<StepResult[]> {
  const githubEnv = join(ctx.temp, 'github-env');
  if (!existsSync(githubEnv)) writeFileSync(githubEnv, '');
  const results: StepResult[] = [];

  const runOne = async (step: Step, inputs: Record<string, string>, prefix: string): Promise<number | null> => {
    const name = prefix + (step.name ?? step.run ?? step.uses ?? '?');
    if (step.uses?.startsWith('actions/upload-artifact@')) {
      const paths = expand(String(step.with?.path ?? ''), inputs, ctx)
        .split('\n')
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p) => (isAbsolute(p) ? p : join(ctx.dir, p)));
      mkdirSync(ctx.artifacts, { recursive: true });
      for (const p of paths.filter(existsSync)) cpSync(p, join(ctx.artifacts, basename(p)));
      const absent = paths.filter((p) => !existsSync(p)).map((p) => basename(p));
      results.push({ step: name, ran: true, code: 0, stdout: '', stderr: absent.length ? `no such files: ${absent.join(', ')}` : '' });
      return 0;
    }
    if (!step.run) {
      results.push({ step: name, ran: true, code: 0, stdout: '', stderr: '' });
      return 0;
    }
    const output = join(ctx.temp, `github-output-${results.length}`);
    writeFileSync(output, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v), inputs, ctx)]));
    const env = userEnv({ ...ctx.env, ...keyValues(githubEnv), ...stepEnv, GITHUB_ENV: githubEnv, GITHUB_OUTPUT: output, RUNNER_TEMP: ctx.temp });
    const cwd = step['working-directory'] ? join(ctx.dir, expand(step['working-directory'], inputs, ctx)) : ctx.dir;
    const script = expand(step.run, inputs, ctx);
    const outcome = await bash(ctx.rewrite ? ctx.rewrite(script) : script, cwd, env);
    results.push({ step: name, ran: true, ...outcome });
    return outcome.code;
  };

  const runList = async (list: Step[], inputs: Record<string, string>, prefix: string): Promise<boolean> => {
    let failed = false;
    const outcomes = new Map<string, string>();
    for (const step of list) {
      if (!holds(step.if, failed, outcomes)) {
        results.push({ step: prefix + (step.name ?? step.run ?? step.uses ?? '?'), ran: false, code: null, stdout: '', stderr: '' });
        if (step.id) outcomes.set(step.id, 'skipped');
        continue;
      }
      let ok: boolean;
      if (step.uses?.startsWith(`${ACTION_REPOSITORY}@`)) {
        const action = actionFile();
        const given = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, String(v)]));
        const unknown = Object.keys(given).filter((k) => !(k in action.inputs));
        if (unknown.length) throw new Error(`inputs action.yml does not declare: ${unknown.join(', ')}`);
        const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, spec]) => [k, given[k] ?? spec.default ?? '']));
        const missing = Object.entries(action.inputs).filter(([k, spec]) => spec.required && !inputs[k]);
        if (missing.length) throw new Error(`required inputs not given: ${missing.map(([k]) => k).join(', ')}`);
        ok = await runList(action.runs.steps, inputs, 'action: ');
      } else {
        ok = (await runOne(step, inputs, prefix)) === 0;
      }
      if (step.id) outcomes.set(step.id, ok ? 'success' : 'failure');
      if (!ok) failed = true;
    }
    return !failed;
  };

  await runList(steps, {}, '');
  return results;
}
