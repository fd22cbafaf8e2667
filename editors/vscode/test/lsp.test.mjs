// `tg lsp`, the Language Server Protocol server (docs/editors.md), driven
// by the protocol library VS Code's own client is built on
// (vscode-jsonrpc, vscode-languageserver-protocol) over the files in
// test/lsp/. TG_BIN names the tg command (ctest editor_lsp sets it);
// without it every case is skipped.
// Run: TG_BIN=build/tg node --test test/lsp.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const rpc = require('vscode-jsonrpc/node');
const lsp = require('vscode-languageserver-protocol');

const TG_BIN = process.env.TG_BIN;
const skip = TG_BIN ? false : 'TG_BIN is not set';
const here = path.dirname(fileURLToPath(import.meta.url));
const TIMEOUT = 10000;

const mainPath = path.join(here, 'lsp', 'main.tg');
const utilPath = path.join(here, 'lsp', 'util.tg');
const mainUri = pathToFileURL(mainPath).href;
const mainText = fs.readFileSync(mainPath, 'utf8');

// The protocol position of the `nth` occurrence of `word` in `text` (plus `delta` characters).
function at(text, word, delta = 0, nth = 0) {
  let offset = -1;
  for (let i = 0; i <= nth; ++i) offset = text.indexOf(word, offset + 1);
  assert.ok(offset >= 0, `'${word}' is not in the text`);
  const before = text.slice(0, offset + delta);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}

// A server and a connection to it; diagnostics queued by URI.
class Session {
  constructor() {
    this.child = spawn(TG_BIN, ['lsp'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.child.stderr.on('data', (d) => (this.stderr += d));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
    this.connection = rpc.createMessageConnection(
      new rpc.StreamMessageReader(this.child.stdout),
      new rpc.StreamMessageWriter(this.child.stdin),
    );
    this.diagnostics = new Map();
    this.waiting = new Map();
    this.connection.onNotification(lsp.PublishDiagnosticsNotification.type, (p) => {
      const w = this.waiting.get(p.uri);
      if (w && w.length) return w.shift()(p.diagnostics);
      if (!this.diagnostics.has(p.uri)) this.diagnostics.set(p.uri, []);
      this.diagnostics.get(p.uri).push(p.diagnostics);
    });
    this.connection.listen();
  }
  nextDiagnostics(uri) {
    const queued = this.diagnostics.get(uri);
    if (queued && queued.length) return Promise.resolve(queued.shift());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri}`)), TIMEOUT);
      if (!this.waiting.has(uri)) this.waiting.set(uri, []);
      this.waiting.get(uri).push((d) => (clearTimeout(timer), resolve(d)));
    });
  }
  request(type, params) {
    return this.connection.sendRequest(type, params);
  }
}

let s;
const doc = { textDocument: { uri: mainUri } };

before(async () => {
  if (skip) return;
  s = new Session();
  const init = await s.request(lsp.InitializeRequest.type, {
    processId: process.pid,
    rootUri: pathToFileURL(path.join(here, 'lsp')).href,
    capabilities: {},
    initializationOptions: { diagnosticsDelay: 0 },
  });
  const caps = init.capabilities;
  assert.equal(caps.positionEncoding, 'utf-16');
  for (const c of ['hoverProvider', 'definitionProvider', 'referencesProvider', 'documentSymbolProvider'])
    assert.equal(caps[c], true, c);
  assert.deepEqual(caps.completionProvider.triggerCharacters, ['.']);
  await s.connection.sendNotification(lsp.InitializedNotification.type, {});
  await s.connection.sendNotification(lsp.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: mainUri, languageId: 'tg', version: 1, text: mainText },
  });
});

after(async () => {
  if (skip) return;
  s.connection.dispose();
  s.child.kill();
});

test('diagnostics of every class, worded as the command line words them', { skip }, async () => {
  const diagnostics = await s.nextDiagnostics(mainUri);
  const found = (message) => diagnostics.find((d) => d.message === message || d.message.startsWith(message));
  const expect = [
    ['`undefined_nm` is not defined', 1, at(mainText, 'undefined_nm')],
    ['`aera` is not defined; did you mean `area`?', 1, at(mainText, 'aera(')],
    ['area: takes 2 arguments but 3 were given', 1, at(mainText, 'area(1')],
    ['sum: unknown keyword argument `axes`; did you mean `axis`?', 1, at(mainText, 'axes')],
    ['zeros: missing argument `shape`', 1, at(mainText, 'zeros()')],
    ['no module named `missing_mod`', 1, at(mainText, 'missing_mod')],
    ['matmul: shapes (2, 3) and (4, 5) are not aligned', 1, at(mainText, '@')],
    ["expected ':'", 1, null],
    ['`unused_local` is assigned but never used', 4, at(mainText, 'unused_local')],
    ['`optim` is imported but never used', 4, at(mainText, 'optim')],
  ];
  for (const [message, severity, start] of expect) {
    const d = found(message);
    assert.ok(d, `no diagnostic '${message}' among ${JSON.stringify(diagnostics.map((x) => x.message))}`);
    assert.equal(d.severity, severity, message);
    if (start) assert.deepEqual(d.range.start, start, message);
    assert.ok(d.range.end.character > d.range.start.character || d.range.end.line > d.range.start.line, message);
  }
  assert.deepEqual(found('`unused_local`').tags, [lsp.DiagnosticTag.Unnecessary]);
  // the name covers its whole word
  const undef = found('`undefined_nm`');
  assert.equal(undef.range.end.character - undef.range.start.character, 'undefined_nm'.length);
  assert.equal(diagnostics.length, expect.length, JSON.stringify(diagnostics.map((x) => x.message)));
});

test('a change is analysed again (incremental edits)', { skip }, async () => {
  const start = at(mainText, 'undefined_nm');
  await s.connection.sendNotification(lsp.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: mainUri, version: 2 },
    contentChanges: [{ range: { start, end: { line: start.line, character: start.character + 'undefined_nm'.length } }, text: 'x' }],
  });
  const diagnostics = await s.nextDiagnostics(mainUri);
  assert.ok(!diagnostics.some((d) => d.message.includes('undefined_nm')));
  assert.ok(diagnostics.some((d) => d.message.startsWith('area: takes 2')));
  // and back, for the other cases
  await s.connection.sendNotification(lsp.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: mainUri, version: 3 },
    contentChanges: [{ text: mainText }],
  });
  assert.ok((await s.nextDiagnostics(mainUri)).some((d) => d.message.includes('undefined_nm')));
});

test('@graph: calls that run eagerly or stop the run are warnings; outside @graph nothing', { skip }, async () => {
  const graphPath = path.join(here, 'lsp', 'graph.tg');
  const graphUri = pathToFileURL(graphPath).href;
  const text = fs.readFileSync(graphPath, 'utf8');
  await s.connection.sendNotification(lsp.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: graphUri, languageId: 'tg', version: 1, text },
  });
  const diagnostics = await s.nextDiagnostics(graphUri);
  const listed = JSON.stringify(diagnostics.map((d) => [d.message, d.range.start]));
  const eager = 'runs eagerly: the tracer cannot express ';
  const refused = ': cannot be called inside a @graph function (run with --eager to execute this function without tracing)';
  const expect = [
    [eager + 'seed() inside a @graph function', at(text, 'seed(')],
    ["runs eagerly under a debugger: breakpoint() stops with eager's values", at(text, 'breakpoint(')],
    [eager + 'tensor: argument `data` as a list holding traced tensors', at(text, 'tensor([z')],  // from a parameter
    [eager + 'tensor: argument `data` as a list holding traced tensors', at(text, 'tensor([n')],  // a parameter
    ['time' + refused, at(text, 'time(')],
    ['isatty' + refused, at(text, 'isatty(')],
  ];
  for (const [message, start] of expect) {
    const d = diagnostics.find((x) => x.message === message && x.range.start.line === start.line);
    assert.ok(d, `no '${message}' at line ${start.line} among ${listed}`);
    assert.equal(d.severity, 2, message);
    assert.deepEqual(d.range.start, start, message);
    // the callee's name
    const callee = text.split('\n')[start.line].slice(start.character).match(/^\w+/)[0];
    assert.deepEqual(d.range.end, { line: start.line, character: start.character + callee.length }, message);
  }
  // constants, a static parameter and the same calls in `plain` (no @graph): nothing
  assert.equal(diagnostics.length, expect.length, listed);
  await s.connection.sendNotification(lsp.DidCloseTextDocumentNotification.type, { textDocument: { uri: graphUri } });
});

test('hover: builtin reference, function and comment, type of a variable', { skip }, async () => {
  const builtin = await s.request(lsp.HoverRequest.type, { ...doc, position: at(mainText, 'zeros((2') });
  assert.match(builtin.contents.value, /zeros\(shape, dtype=f32\)/);
  const fn = await s.request(lsp.HoverRequest.type, { ...doc, position: at(mainText, 'area(1') });
  assert.match(fn.contents.value, /def area\(w, h\)/);
  assert.match(fn.contents.value, /The area of a w by h rectangle\./);
  const variable = await s.request(lsp.HoverRequest.type, { ...doc, position: at(mainText, 'x = zeros') });
  assert.match(variable.contents.value, /x: f32\[2, 3\]/);
  const derived = await s.request(lsp.HoverRequest.type, { ...doc, position: at(mainText, 't = ') });
  assert.match(derived.contents.value, /t: f32\[3, 2\]/);
  const imported = await s.request(lsp.HoverRequest.type, { ...doc, position: at(mainText, 'scale(x', 1) });
  assert.match(imported.contents.value, /def scale\(x, k=2\)/);
  assert.match(imported.contents.value, /Scales x by k\./);
  assert.equal(await s.request(lsp.HoverRequest.type, { ...doc, position: { line: 0, character: 0 } }), null);
});

test('definition and references across an imported module', { skip }, async () => {
  const def = await s.request(lsp.DefinitionRequest.type, { ...doc, position: at(mainText, 'scale(x', 1) });
  assert.equal(def.uri, pathToFileURL(utilPath).href);
  const utilText = fs.readFileSync(utilPath, 'utf8');
  assert.deepEqual(def.range.start, at(utilText, 'scale'));
  const local = await s.request(lsp.DefinitionRequest.type, { ...doc, position: at(mainText, 'area(1') });
  assert.deepEqual(local.range.start, at(mainText, 'def area', 'def '.length));
  const module = await s.request(lsp.DefinitionRequest.type, { ...doc, position: at(mainText, 'util.') });
  assert.equal(module.uri, pathToFileURL(utilPath).href);
  const refs = await s.request(lsp.ReferencesRequest.type, {
    ...doc, position: at(mainText, 'x = zeros'), context: { includeDeclaration: true },
  });
  assert.ok(refs.length >= 3, JSON.stringify(refs));
  assert.ok(refs.every((r) => r.uri === mainUri));
  // a module's function: its definition and its uses in the open files that import it
  const uses = await s.request(lsp.ReferencesRequest.type, {
    ...doc, position: at(mainText, 'scale(x', 1), context: { includeDeclaration: true },
  });
  assert.ok(uses.some((r) => r.uri === mainUri) && uses.some((r) => r.uri === def.uri), JSON.stringify(uses));
});

test('completion: names in scope, keywords, module members, methods after a dot', { skip }, async () => {
  const labels = async (position) =>
    (await s.request(lsp.CompletionRequest.type, { ...doc, position })).items.map((i) => i.label);
  const inside = await labels(at(mainText, 'return w * h', 'return '.length));
  assert.ok(inside.includes('unused_local') && inside.includes('w') && inside.includes('area'));
  assert.ok(inside.includes('while') && inside.includes('zeros'));
  const members = await labels(at(mainText, 'util.scale', 'util.'.length));
  assert.deepEqual(members.filter((m) => m === 'scale' || m === 'bias'), ['bias', 'scale']);
  const methods = await labels(at(mainText, 'x.T', 'x.'.length));
  assert.ok(methods.includes('reshape') && methods.includes('shape') && !methods.includes('append'));
});

test('signature help while typing arguments', { skip }, async () => {
  const help = await s.request(lsp.SignatureHelpRequest.type, { ...doc, position: at(mainText, 'area(1, 2', 'area(1, '.length) });
  assert.equal(help.signatures[help.activeSignature].label, 'area(w, h)');
  assert.equal(help.signatures[help.activeSignature].activeParameter, 1);
  const builtin = await s.request(lsp.SignatureHelpRequest.type, { ...doc, position: at(mainText, 'axes', 0) });
  assert.match(builtin.signatures.map((x) => x.label).join(' '), /sum\(x, axis=None, keepdims=False, \*, dtype=None\)/);
});

test('document symbols: functions (with their names) and top-level variables', { skip }, async () => {
  const symbols = await s.request(lsp.DocumentSymbolRequest.type, doc);
  const area = symbols.find((x) => x.name === 'area');
  assert.equal(area.kind, lsp.SymbolKind.Function);
  assert.ok(area.children.some((c) => c.name === 'unused_local'));
  assert.ok(area.range.end.line > area.range.start.line);
  assert.equal(symbols.find((x) => x.name === 'x').kind, lsp.SymbolKind.Variable);
  assert.equal(symbols.find((x) => x.name === 'util').kind, lsp.SymbolKind.Module);
});

test('bad requests get error responses and the server goes on', { skip }, async () => {
  await assert.rejects(s.request('textDocument/noSuchThing', doc), (e) => e.code === lsp.ErrorCodes.MethodNotFound);
  await assert.rejects(s.request(lsp.HoverRequest.type, { textDocument: {} }), (e) => e.code === lsp.ErrorCodes.InvalidParams);
  const still = await s.request(lsp.HoverRequest.type, { ...doc, position: at(mainText, 'zeros((2') });
  assert.ok(still.contents.value.length > 0);
});

// Raw frames: what a protocol library never sends.
test('malformed messages: error responses, never a crash; shutdown and exit', { skip }, async () => {
  const child = spawn(TG_BIN, ['lsp'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const frame = (body) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  child.stdin.write(frame('{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}'));
  child.stdin.write(frame('{not json'));
  child.stdin.write(frame('[1, 2]'));
  child.stdin.write('Content-Length: nope\r\n\r\n');
  child.stdin.write(frame('{"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": 7}'));
  child.stdin.write(frame('{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 1}}'));
  child.stdin.write(frame('{"jsonrpc": "2.0", "id": 3, "method": "shutdown"}'));
  child.stdin.write(frame('{"jsonrpc": "2.0", "method": "exit"}'));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 0);
  const messages = out.split(/Content-Length: \d+\r\n\r\n/).filter(Boolean).map((m) => JSON.parse(m));
  assert.equal(messages.find((m) => m.id === 1).result.capabilities.hoverProvider, true);
  assert.equal(messages.filter((m) => m.error && m.error.code === -32700).length, 1);
  assert.equal(messages.filter((m) => m.error && m.error.code === -32600).length, 1);
  assert.equal(messages.find((m) => m.id === 2).error.code, -32602);
  assert.equal(messages.find((m) => m.id === 3).result, null);
});

test('shutdown then exit ends the server with status 0', { skip }, async () => {
  assert.equal(await s.request(lsp.ShutdownRequest.type), null);
  await s.connection.sendNotification(lsp.ExitNotification.type);
  assert.equal(await s.exited, 0);
});
