// `tg dap`, the Debug Adapter Protocol server (docs/debugging.md "VS Code"),
// driven by VS Code's own test client (@vscode/debugadapter-testsupport)
// over the scripts in test/dap/. TG_BIN names the tg command (ctest
// editor_dap sets it); without it every case is skipped.
// Run: TG_BIN=build/tg node --test test/dap.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { DebugClient } = require('@vscode/debugadapter-testsupport');

const TG_BIN = process.env.TG_BIN;
const skip = TG_BIN ? false : 'TG_BIN is not set';
const here = path.dirname(fileURLToPath(import.meta.url));
const script = (name) => path.join(here, 'dap', name);

// Generous: the first call of a @graph function compiles it (LLVM).
const TIMEOUT = 20000;

// Every event the adapter sends, queued by type: a test takes them in order
// and never misses one that came before it started waiting.
class Events {
  constructor(dc) {
    this.queues = new Map();
    this.waiters = new Map();
    this.output = { stdout: '', stderr: '', console: '' };
    for (const type of ['initialized', 'stopped', 'output', 'exited', 'terminated']) {
      dc.on(type, (e) => this.push(type, e));
    }
  }
  push(type, e) {
    if (type === 'output') this.output[e.body.category] = (this.output[e.body.category] ?? '') + e.body.output;
    const waiting = this.waiters.get(type);
    if (waiting && waiting.length) return waiting.shift()(e);
    if (!this.queues.has(type)) this.queues.set(type, []);
    this.queues.get(type).push(e);
  }
  // The next event of `type`: one that came already, or the next to come.
  next(type, timeout = TIMEOUT) {
    const queued = this.queues.get(type);
    if (queued && queued.length) return Promise.resolve(queued.shift());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no '${type}' event within ${timeout} ms`)), timeout);
      if (!this.waiters.has(type)) this.waiters.set(type, []);
      this.waiters.get(type).push((e) => {
        clearTimeout(timer);
        resolve(e);
      });
    });
  }
  // Whether an event of `type` came and was not taken.
  pending(type) {
    return (this.queues.get(type) ?? []).length;
  }
  // Waits until the output of `category` contains `text`.
  async waitOutput(category, text, timeout = TIMEOUT) {
    const end = Date.now() + timeout;
    while (!this.output[category].includes(text)) {
      if (Date.now() > end) throw new Error(`no ${category} output '${text}'; got '${this.output[category]}'`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

// One adapter per case, `tg dap` over stdin/stdout; always disconnected.
function dapTest(name, body) {
  test(name, { skip, timeout: 4 * TIMEOUT }, async () => {
    const dc = new DebugClient(TG_BIN, 'dap', 'tg');
    dc.defaultTimeout = TIMEOUT;
    const events = new Events(dc);
    await dc.start();
    try {
      await body(dc, events);
    } finally {
      await dc.stop();
    }
  });
}

// initialize, launch, breakpoints, configurationDone: as VS Code does it.
async function launch(dc, events, program, options = {}) {
  const init = await dc.initializeRequest();
  await events.next('initialized');
  await dc.launchRequest({ program: script(program), stopOnEntry: options.stopOnEntry ?? false, ...options.launch });
  const placed = {};
  for (const [file, breakpoints] of Object.entries(options.breakpoints ?? {})) {
    placed[file] = (await dc.setBreakpointsRequest({ source: { path: script(file) }, breakpoints })).body.breakpoints;
  }
  if (options.functionBreakpoints) {
    await dc.setFunctionBreakpointsRequest({ breakpoints: options.functionBreakpoints });
  }
  await dc.setExceptionBreakpointsRequest({ filters: options.exceptions ?? [] });
  await dc.configurationDoneRequest();
  return { init, placed };
}

// The stop's frames, innermost first.
async function frames(dc) {
  return (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
}

// name -> variable of a variables reference.
async function vars(dc, ref, extra = {}) {
  const list = (await dc.variablesRequest({ variablesReference: ref, ...extra })).body.variables;
  return Object.fromEntries(list.map((v) => [v.name, v]));
}

async function scopeVars(dc, frameId, scopeName) {
  const scopes = (await dc.scopesRequest({ frameId })).body.scopes;
  const scope = scopes.find((s) => s.name === scopeName);
  assert.ok(scope, `no scope ${scopeName} in ${scopes.map((s) => s.name)}`);
  return vars(dc, scope.variablesReference);
}

async function evaluate(dc, frameId, expression, context = 'watch') {
  return (await dc.evaluateRequest({ expression, frameId, context })).body;
}

// The program runs to its end: exited with `code`, then terminated.
async function ends(events, code) {
  assert.equal((await events.next('exited')).body.exitCode, code);
  await events.next('terminated');
}

// ---------------------------------------------------------------- the session

dapTest('initialize answers the capabilities, then the initialized event', async (dc, events) => {
  const init = await dc.initializeRequest();
  const caps = init.body;
  for (const c of ['supportsConfigurationDoneRequest', 'supportsConditionalBreakpoints',
    'supportsHitConditionalBreakpoints', 'supportsLogPoints', 'supportsFunctionBreakpoints',
    'supportsEvaluateForHovers', 'supportsSetVariable', 'supportsTerminateRequest']) {
    assert.equal(caps[c], true, c);
  }
  assert.deepEqual(caps.exceptionBreakpointFilters.map((f) => f.filter), ['raised', 'uncaught']);
  assert.equal(caps.exceptionBreakpointFilters.find((f) => f.filter === 'uncaught').default, true);
  await events.next('initialized');
  const threads = (await dc.threadsRequest()).body.threads;
  assert.deepEqual(threads, [{ id: 1, name: 'main' }]);
});

dapTest('a program runs to its end: stdout output, exited 0, terminated', async (dc, events) => {
  await launch(dc, events, 'basic.tg');
  await ends(events, 0);
  assert.equal(events.output.stdout, 'y = [2.0, 4.0, 6.0]\ntotal 12.0\n');
});

dapTest('launch: a program relative to cwd, its args as argv', async (dc, events) => {
  await dc.initializeRequest();
  await events.next('initialized');
  await dc.launchRequest({ program: 'argv.tg', cwd: path.join(here, 'dap'), args: ['a', 'b c'], env: { TG_DAP_TEST: '1' } });
  await dc.configurationDoneRequest();
  await ends(events, 0);
  assert.equal(events.output.stdout, "['a', 'b c']\n");
});

dapTest('noDebug runs without stopping at breakpoints', async (dc, events) => {
  await launch(dc, events, 'loop.tg', { launch: { noDebug: true }, breakpoints: { 'loop.tg': [{ line: 4 }] } });
  await ends(events, 0);
  assert.equal(events.pending('stopped'), 0);
  assert.equal(events.output.stdout, 'total 10\n');
});

dapTest('stopOnEntry stops before the first statement', async (dc, events) => {
  await launch(dc, events, 'basic.tg', { stopOnEntry: true });
  const stop = await events.next('stopped');
  assert.equal(stop.body.reason, 'entry');
  assert.equal(stop.body.threadId, 1);
  assert.equal(stop.body.allThreadsStopped, true);
  const [top] = await frames(dc);
  assert.equal(top.line, 2);
  assert.equal(top.name, '<module>');
  assert.equal(top.source.path, script('basic.tg'));
  await dc.continueRequest({ threadId: 1 });
  await ends(events, 0);
});

// ---------------------------------------------------------------- breakpoints and stepping

dapTest('a breakpoint, stepping in, over and out, setVariable read back', async (dc, events) => {
  const { placed } = await launch(dc, events, 'basic.tg', { breakpoints: { 'basic.tg': [{ line: 9 }] } });
  assert.equal(placed['basic.tg'][0].verified, true);
  assert.equal(placed['basic.tg'][0].line, 9);
  const hit = await events.next('stopped');
  assert.equal(hit.body.reason, 'breakpoint');
  assert.deepEqual(hit.body.hitBreakpointIds, [placed['basic.tg'][0].id]);
  let stack = await frames(dc);
  assert.equal(stack[0].line, 9);

  await dc.stepInRequest({ threadId: 1 });
  assert.equal((await events.next('stopped')).body.reason, 'step');
  stack = await frames(dc);
  assert.equal(stack[0].name, 'scale');
  assert.equal(stack[0].line, 3);
  assert.equal(stack[1].name, '<module>');
  assert.equal(stack[1].line, 9);
  const scopes = (await dc.scopesRequest({ frameId: stack[0].id })).body.scopes.map((s) => s.name);
  assert.deepEqual(scopes, ['Locals', 'Globals']);
  const locals = await scopeVars(dc, stack[0].id, 'Locals');
  assert.deepEqual(Object.keys(locals).sort(), ['k', 'v']);
  assert.equal(locals.v.value, '[1.0, 2.0, 3.0]');

  await dc.nextRequest({ threadId: 1 });
  assert.equal((await events.next('stopped')).body.reason, 'step');
  stack = await frames(dc);
  assert.equal(stack[0].line, 4);
  assert.equal((await evaluate(dc, stack[0].id, 'w.sum()')).result, '12.0');
  // setVariable evaluates the text in the frame
  const scopeList = (await dc.scopesRequest({ frameId: stack[0].id })).body.scopes;
  const localsRef = scopeList.find((s) => s.name === 'Locals').variablesReference;
  const set = await dc.setVariableRequest({ variablesReference: localsRef, name: 'w', value: 'w * 10.0' });
  assert.equal(set.body.value, '[20.0, 40.0, 60.0]');
  assert.equal((await evaluate(dc, stack[0].id, 'w')).result, '[20.0, 40.0, 60.0]');

  await dc.stepOutRequest({ threadId: 1 });
  assert.equal((await events.next('stopped')).body.reason, 'step');
  stack = await frames(dc);
  assert.equal(stack.length, 1);
  assert.equal(stack[0].name, '<module>');
  assert.equal(stack[0].line, 10);
  assert.equal((await evaluate(dc, stack[0].id, 'y')).result, '[20.0, 40.0, 60.0]');

  await dc.continueRequest({ threadId: 1 });
  await ends(events, 0);
  assert.equal(events.output.stdout, 'y = [20.0, 40.0, 60.0]\ntotal 120.0\n');
});

dapTest('a function breakpoint stops at the first line of each call', async (dc, events) => {
  await launch(dc, events, 'basic.tg', { functionBreakpoints: [{ name: 'scale' }] });
  const stop = await events.next('stopped');
  assert.equal(stop.body.reason, 'function breakpoint');
  const [top] = await frames(dc);
  assert.equal(top.name, 'scale');
  assert.equal(top.line, 3);
  await dc.continueRequest({ threadId: 1 });
  await ends(events, 0);
});

dapTest('a conditional breakpoint stops only when its condition holds', async (dc, events) => {
  await launch(dc, events, 'loop.tg', { breakpoints: { 'loop.tg': [{ line: 4, condition: 'i == 3' }] } });
  assert.equal((await events.next('stopped')).body.reason, 'breakpoint');
  const [top] = await frames(dc);
  assert.equal((await evaluate(dc, top.id, 'i')).result, '3');
  assert.equal((await evaluate(dc, top.id, 'total')).result, '3');
  await dc.continueRequest({ threadId: 1 });
  await ends(events, 0);
  assert.equal(events.pending('stopped'), 0);
});

dapTest('a hit condition stops at the given hit only', async (dc, events) => {
  await launch(dc, events, 'loop.tg', { breakpoints: { 'loop.tg': [{ line: 4, hitCondition: '2' }] } });
  await events.next('stopped');
  const [top] = await frames(dc);
  assert.equal((await evaluate(dc, top.id, 'i')).result, '1');
  await dc.continueRequest({ threadId: 1 });
  await ends(events, 0);
  assert.equal(events.pending('stopped'), 0);
});

dapTest('a malformed hit condition is an unverified breakpoint', async (dc, events) => {
  const { placed } = await launch(dc, events, 'loop.tg', {
    breakpoints: { 'loop.tg': [{ line: 4, hitCondition: 'often' }, { line: 400 }] },
  });
  assert.equal(placed['loop.tg'][0].verified, false);
  assert.match(placed['loop.tg'][0].message, /hit condition/);
  assert.equal(placed['loop.tg'][1].verified, false);
  await ends(events, 0);
});

dapTest('a logpoint writes its message to the console instead of stopping', async (dc, events) => {
  await launch(dc, events, 'loop.tg', { breakpoints: { 'loop.tg': [{ line: 4, logMessage: 'i is {i}' }] } });
  await ends(events, 0);
  assert.equal(events.pending('stopped'), 0);
  assert.equal(events.output.console, 'i is 0\ni is 1\ni is 2\ni is 3\ni is 4\n');
  assert.equal(events.output.stdout, 'total 10\n');
});

dapTest('a breakpoint inside a @graph function\'s converted while', async (dc, events) => {
  await launch(dc, events, 'graph_while.tg', { breakpoints: { 'graph_while.tg': [{ line: 6 }] } });
  assert.equal((await events.next('stopped')).body.reason, 'breakpoint');
  let stack = await frames(dc);
  assert.match(stack[0].name, /^grow \[@graph\]/);
  assert.equal(stack[0].line, 6);
  assert.equal((await scopeVars(dc, stack[0].id, 'Locals')).x.value, '[1.0, 2.0]');
  await dc.continueRequest({ threadId: 1 });
  await events.next('stopped');
  stack = await frames(dc);
  assert.equal((await evaluate(dc, stack[0].id, 'x')).result, '[2.0, 4.0]');
  // removed while stopped: the program runs to its end
  await dc.setBreakpointsRequest({ source: { path: script('graph_while.tg') }, breakpoints: [] });
  await dc.continueRequest({ threadId: 1 });
  await ends(events, 0);
  assert.equal(events.output.stdout, '[4.0, 8.0]\n');
});

// ---------------------------------------------------------------- variables and evaluate

dapTest('variables: tensors (shape, dtype, summary, paged elements), lists, tuples, dicts', async (dc, events) => {
  await launch(dc, events, 'basic.tg', { breakpoints: { 'basic.tg': [{ line: 9 }] } });
  await events.next('stopped');
  const [top] = await frames(dc);
  // a module's top level: its variables are the Globals
  assert.deepEqual((await dc.scopesRequest({ frameId: top.id })).body.scopes.map((s) => s.name), ['Globals']);
  const globals = await scopeVars(dc, top.id, 'Globals');
  assert.ok(globals.scale, 'the function scale is a module variable');

  const x = globals.x;
  assert.equal(x.value, '[1.0, 2.0, 3.0]');
  assert.equal(x.type, 'f32[3]');
  assert.equal(x.indexedVariables, 3);
  assert.ok(x.variablesReference > 0);
  const named = await vars(dc, x.variablesReference, { filter: 'named' });
  assert.equal(named.shape.value, '(3,)');
  assert.equal(named.dtype.value, 'f32');
  assert.match(named.summary.value, /min 1.*max 3.*mean 2/);
  const page = await vars(dc, x.variablesReference, { filter: 'indexed', start: 1, count: 2 });
  assert.deepEqual(Object.keys(page), ['1', '2']);
  assert.equal(page['1'].value, '2.0');
  assert.equal(page['2'].value, '3.0');

  const m = globals.m;
  assert.equal(m.type, 'f32[3,2]');
  assert.equal(m.indexedVariables, 3);
  const rows = await vars(dc, m.variablesReference, { filter: 'indexed', start: 0, count: 3 });
  assert.equal(rows['0'].value, '[1.0, 1.0]');
  assert.equal(rows['0'].indexedVariables, 2);  // a row expands again
  const mNamed = await vars(dc, m.variablesReference, { filter: 'named' });
  assert.equal(mNamed.shape.value, '(3, 2)');

  const items = globals.items;
  assert.equal(items.indexedVariables, 3);
  const parts = await vars(dc, items.variablesReference);
  assert.equal(parts['0'].value, '1');
  const pair = await vars(dc, parts['1'].variablesReference);
  assert.equal(pair['1'].value, "'two'");
  const dict = await vars(dc, parts['2'].variablesReference);
  assert.equal(dict["'a'"].value, '[1.0, 2.0, 3.0]');

  // evaluate: repr in the REPL, a reference to expand
  const repl = await evaluate(dc, top.id, 'x * 2.0', 'repl');
  assert.match(repl.result, /shape=\(3,\).*f32/);
  assert.ok(repl.variablesReference > 0);
  const hover = await evaluate(dc, top.id, 'x', 'hover');
  assert.equal(hover.result, '[1.0, 2.0, 3.0]');
  // an assignment in the REPL changes the frame's variable
  await evaluate(dc, top.id, 'x = x + 1.0', 'repl');
  assert.equal((await evaluate(dc, top.id, 'x')).result, '[2.0, 3.0, 4.0]');
  // an error is an error response, the stop goes on
  await assert.rejects(evaluate(dc, top.id, 'undefined_name + 1'), /undefined_name/);
  await dc.continueRequest({ threadId: 1 });
  await ends(events, 0);
  assert.equal(events.output.stdout, 'y = [4.0, 6.0, 8.0]\ntotal 18.0\n');
});

dapTest('references do not outlive the stop', async (dc, events) => {
  await launch(dc, events, 'loop.tg', { breakpoints: { 'loop.tg': [{ line: 4 }] } });
  await events.next('stopped');
  const [first] = await frames(dc);
  const scopes = (await dc.scopesRequest({ frameId: first.id })).body.scopes;
  await dc.continueRequest({ threadId: 1 });
  await events.next('stopped');
  await assert.rejects(dc.variablesRequest({ variablesReference: scopes[0].variablesReference }), /no variables/);
  await assert.rejects(dc.scopesRequest({ frameId: first.id }), /no frame/);
  await dc.setBreakpointsRequest({ source: { path: script('loop.tg') }, breakpoints: [] });
  await dc.continueRequest({ threadId: 1 });
  await ends(events, 0);
});

// ---------------------------------------------------------------- errors

dapTest('an exception breakpoint stops where the error is raised, locals readable', async (dc, events) => {
  await launch(dc, events, 'error.tg', { exceptions: ['uncaught'] });
  const stop = await events.next('stopped');
  assert.equal(stop.body.reason, 'exception');
  assert.match(stop.body.description, /cannot be broadcast/);
  const stack = await frames(dc);
  assert.equal(stack[0].name, 'combine');
  assert.equal(stack[0].line, 3);
  const locals = await scopeVars(dc, stack[0].id, 'Locals');
  assert.equal(locals.a.type, 'f32[2,3]');
  assert.equal(locals.b.type, 'f32[4]');
  const info = await dc.exceptionInfoRequest({ threadId: 1 });
  assert.match(info.body.description, /cannot be broadcast/);
  await dc.continueRequest({ threadId: 1 });
  await ends(events, 1);
  assert.match(events.output.stderr, /error\.tg:3:\d+: error: .*cannot be broadcast/);
});

dapTest('without exception breakpoints a failing program reports on stderr and exits 1', async (dc, events) => {
  await launch(dc, events, 'error.tg');
  await ends(events, 1);
  assert.equal(events.pending('stopped'), 0);
  assert.match(events.output.stderr, /cannot be broadcast/);
  assert.match(events.output.stderr, /in combine/);
});

// ---------------------------------------------------------------- pause and terminate

dapTest('pause stops a long compiled loop within a second; terminate ends it', async (dc, events) => {
  await launch(dc, events, 'spin.tg');
  await events.waitOutput('stdout', 'spinning\n');
  await new Promise((r) => setTimeout(r, 300));
  // requests that need a stop are refused while it runs
  await assert.rejects(dc.stackTraceRequest({ threadId: 1 }), /running/);
  await assert.rejects(dc.continueRequest({ threadId: 1 }), /running/);
  const asked = Date.now();
  await dc.pauseRequest({ threadId: 1 });
  const stop = await events.next('stopped', 1000);
  assert.ok(Date.now() - asked < 1000, `paused after ${Date.now() - asked} ms`);
  assert.equal(stop.body.reason, 'pause');
  const stack = await frames(dc);
  const compiled = stack.find((f) => /\[compiled\]/.test(f.name));
  assert.ok(compiled, `a compiled frame in ${stack.map((f) => f.name)}`);
  assert.match(compiled.name, /^spin /);
  const locals = await scopeVars(dc, compiled.id, 'Locals');
  assert.ok(locals['(compiled)'], 'a compiled frame says why it shows no variables');
  await assert.rejects(evaluate(dc, compiled.id, 'i'), /compiled/);
  await dc.terminateRequest();
  await ends(events, 1);
  assert.equal(events.output.stderr, '', 'ending it is no error to report');
});

dapTest('terminate while running, and disconnect, end the program', async (dc, events) => {
  await launch(dc, events, 'spin.tg');
  await events.waitOutput('stdout', 'spinning\n');
  await dc.terminateRequest();
  await events.next('exited');
  await events.next('terminated');
  // after the end, requests on the program say so
  await assert.rejects(dc.stackTraceRequest({ threadId: 1 }), /ended/);
});

dapTest('pause stops an eager loop at its next statement', async (dc, events) => {
  await launch(dc, events, 'eager_loop.tg');
  await new Promise((r) => setTimeout(r, 300));
  await assert.rejects(dc.evaluateRequest({ expression: 'n', context: 'repl' }), /running/);
  await dc.pauseRequest({ threadId: 1 });
  assert.equal((await events.next('stopped', 1000)).body.reason, 'pause');
  const [top] = await frames(dc);
  assert.ok([4, 5].includes(top.line), `stopped at line ${top.line}`);
  assert.equal((await evaluate(dc, top.id, 'n > 0')).result, 'True');
  await dc.pauseRequest({ threadId: 1 });  // stopped already: nothing to do
  await dc.terminateRequest();
  await ends(events, 1);
  assert.equal(events.output.stderr, '');
});

dapTest('a breakpoint set while the program runs stops it there', async (dc, events) => {
  await launch(dc, events, 'eager_loop.tg');
  await new Promise((r) => setTimeout(r, 300));
  const set = await dc.setBreakpointsRequest({ source: { path: script('eager_loop.tg') }, breakpoints: [{ line: 5 }] });
  assert.equal(set.body.breakpoints[0].verified, true);
  const stop = await events.next('stopped', 2000);
  assert.equal(stop.body.reason, 'breakpoint');  // not the adapter's own pause
  assert.deepEqual(stop.body.hitBreakpointIds, [set.body.breakpoints[0].id]);
  const [top] = await frames(dc);
  assert.equal(top.line, 5);
  await dc.continueRequest({ threadId: 1 });
  assert.equal((await events.next('stopped')).body.reason, 'breakpoint');
  await dc.terminateRequest();
  await ends(events, 1);
});

dapTest('the raised filter stops at errors too', async (dc, events) => {
  await launch(dc, events, 'error.tg', { exceptions: ['raised'] });
  assert.equal((await events.next('stopped')).body.reason, 'exception');
  await dc.continueRequest({ threadId: 1 });
  await ends(events, 1);
});

// ---------------------------------------------------------------- malformed requests

dapTest('malformed requests get error responses and the adapter goes on', async (dc, events) => {
  await assert.rejects(dc.customRequest('frobnicate', { x: 1 }), /frobnicate/);
  await dc.initializeRequest();
  await events.next('initialized');
  // before launch
  await assert.rejects(dc.stackTraceRequest({ threadId: 1 }), /launch/);
  await assert.rejects(dc.continueRequest({ threadId: 1 }), /launch/);
  // bad launches leave the session ready for a good one
  await assert.rejects(dc.launchRequest({}), /program/);
  await assert.rejects(dc.launchRequest({ program: script('no_such_script.tg') }), /no_such_script/);
  await assert.rejects(dc.launchRequest({ program: 42 }), /program/);
  await assert.rejects(dc.setBreakpointsRequest({ breakpoints: [{ line: 1 }] }), /source/);
  await assert.rejects(dc.setBreakpointsRequest({ source: { path: script('loop.tg') }, breakpoints: [{ line: 'x' }] }),
    /line/);
  await assert.rejects(dc.setExceptionBreakpointsRequest({ filters: 'uncaught' }), /filters/);
  await dc.launchRequest({ program: script('basic.tg'), stopOnEntry: true });
  await dc.configurationDoneRequest();
  await events.next('stopped');
  const [top] = await frames(dc);
  // garbage frames and references
  await assert.rejects(dc.evaluateRequest({ expression: 'x', frameId: 987654 }), /no frame/);
  await assert.rejects(dc.scopesRequest({ frameId: -5 }), /no frame/);
  await assert.rejects(dc.scopesRequest({}), /frameId/);
  await assert.rejects(dc.variablesRequest({ variablesReference: 424242 }), /no variables/);
  await assert.rejects(dc.variablesRequest({ variablesReference: 'abc' }), /variablesReference/);
  await assert.rejects(dc.stackTraceRequest({ threadId: 7 }), /thread/);
  await assert.rejects(dc.evaluateRequest({ expression: 'x +* 1', frameId: top.id }), /.+/);
  await assert.rejects(dc.setVariableRequest({ variablesReference: 999, name: 'x', value: '1' }), /.+/);
  await assert.rejects(dc.configurationDoneRequest(), /already/);
  await assert.rejects(dc.launchRequest({ program: script('basic.tg') }), /already/);
  // still alive and still stopped
  assert.deepEqual((await dc.threadsRequest()).body.threads, [{ id: 1, name: 'main' }]);
  assert.equal((await frames(dc))[0].line, 2);
  await dc.continueRequest({ threadId: 1 });
  await ends(events, 0);
});

// ---------------------------------------------------------------- the wire itself

// Content-Length framed messages by hand, for what DebugClient cannot send.
function rawAdapter(args = ['dap']) {
  const child = spawn(TG_BIN, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let data = Buffer.alloc(0);
  const messages = [];
  child.stdout.on('data', (chunk) => {
    data = Buffer.concat([data, chunk]);
    for (;;) {
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/.exec(data.subarray(0, end).toString())[1]);
      if (data.length < end + 4 + length) return;
      messages.push(JSON.parse(data.subarray(end + 4, end + 4 + length).toString()));
      data = data.subarray(end + 4 + length);
    }
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const frame = (text) => `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
  const until = async (pred, what) => {
    const end = Date.now() + TIMEOUT;
    while (!pred()) {
      if (Date.now() > end) throw new Error(`no ${what}; stderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, messages, frame, until, exited, stderr: () => stderr };
}

test('unparsable input is logged and skipped; end of input ends the adapter', { skip, timeout: 2 * TIMEOUT }, async () => {
  const a = rawAdapter();
  a.child.stdin.write(a.frame('{not json'));
  a.child.stdin.write('Content-Length: many\r\n\r\n');
  a.child.stdin.write('X-Other: 1\r\n\r\n');
  a.child.stdin.write(a.frame('[1, 2]'));
  a.child.stdin.write(a.frame('{"seq": 5}'));
  a.child.stdin.write(a.frame(JSON.stringify({ seq: 6, type: 'request', command: 'initialize', arguments: {} })));
  await a.until(() => a.messages.some((m) => m.request_seq === 6), 'initialize response');
  const bad = a.messages.find((m) => m.request_seq === 5);
  assert.equal(bad.success, false);
  const init = a.messages.find((m) => m.request_seq === 6);
  assert.equal(init.success, true);
  assert.ok(a.messages.some((m) => m.event === 'initialized'));
  assert.match(a.stderr(), /not JSON/);
  assert.match(a.stderr(), /Content-Length/);
  // every message is numbered, in order
  const seqs = a.messages.map((m) => m.seq);
  assert.deepEqual(seqs, [...seqs].sort((x, y) => x - y));
  a.child.stdin.end();
  assert.equal(await a.exited, 0);
});

test('end of input while the program runs ends it and the adapter', { skip, timeout: 2 * TIMEOUT }, async () => {
  const a = rawAdapter();
  let seq = 1;
  const send = (command, args) => a.child.stdin.write(a.frame(JSON.stringify({ seq: seq++, type: 'request', command, arguments: args })));
  send('initialize', {});
  send('launch', { program: script('spin.tg') });
  send('configurationDone', {});
  const stdout = () => a.messages.filter((m) => m.event === 'output' && m.body.category === 'stdout').map((m) => m.body.output).join('');
  await a.until(() => stdout().includes('spinning\n'), 'the program\'s output');
  a.child.stdin.end();
  assert.equal(await a.exited, 0);
});

test('disconnect while stopped ends the program and the adapter', { skip, timeout: 2 * TIMEOUT }, async () => {
  const a = rawAdapter();
  let seq = 1;
  const send = (command, args) => a.child.stdin.write(a.frame(JSON.stringify({ seq: seq++, type: 'request', command, arguments: args })));
  send('initialize', {});
  send('launch', { program: script('basic.tg'), stopOnEntry: true });
  send('configurationDone', {});
  await a.until(() => a.messages.some((m) => m.event === 'stopped'), 'the entry stop');
  send('disconnect', {});
  await a.until(() => a.messages.some((m) => m.command === 'disconnect'), 'the disconnect response');
  assert.equal(a.messages.find((m) => m.command === 'disconnect').success, true);
  assert.ok(a.messages.some((m) => m.event === 'terminated'));
  assert.equal(await a.exited, 0);
});

test('tg dap --port serves one client on 127.0.0.1', { skip, timeout: 2 * TIMEOUT }, async () => {
  // a free port: the system's pick, released for the adapter
  const port = await new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
  const a = rawAdapter(['dap', '--port', String(port)]);
  await a.until(() => /listening on 127\.0\.0\.1:/.test(a.stderr()), 'listening');
  const dc = new DebugClient(TG_BIN, 'dap', 'tg');
  const events = new Events(dc);
  await dc.start(port);
  try {
    await launch(dc, events, 'loop.tg');
    await ends(events, 0);
    assert.equal(events.output.stdout, 'total 10\n');
  } finally {
    await dc.stop();
  }
  assert.equal(await a.exited, 0);
  assert.equal(a.messages.length, 0, 'nothing on stdout in --port mode');
});
