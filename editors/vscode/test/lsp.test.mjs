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
    // $TG_PATH: test/lsp/sub/deep.tg imports test/lsp/util.tg through it
    const env = { ...process.env, TG_PATH: path.join(here, 'lsp') };
    this.child = spawn(TG_BIN, ['lsp'], { stdio: ['pipe', 'pipe', 'pipe'], env });
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

// `body` with a server of its own, initialized with `options`; the server
// is stopped however the body ends (a failed assertion must not leave it running).
async function withServer(options, body) {
  const own = new Session();
  try {
    await own.request(lsp.InitializeRequest.type, {
      processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: options,
    });
    return await body(own);
  } finally {
    own.connection.dispose();
    own.child.kill();
  }
}

let s;
const doc = { textDocument: { uri: mainUri } };

// Opens test/lsp/NAME; its path, URI, text and first diagnostics.
async function openFixture(name) {
  const file = path.join(here, 'lsp', name);
  const uri = pathToFileURL(file).href;
  const text = fs.readFileSync(file, 'utf8');
  await s.connection.sendNotification(lsp.DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'tg', version: 1, text },
  });
  const diagnostics = await s.nextDiagnostics(uri);
  return { uri, text, diagnostics, listed: JSON.stringify(diagnostics.map((d) => [d.message, d.range.start])) };
}

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

// The quiet period is longer than sending the burst takes (one write of
// four frames), so the server sees the burst whole: one analysis, of the
// last text.
test('a burst of edits is analysed once, after the last', { skip }, async () => {
  await withServer({ diagnosticsDelay: 500 }, async (own) => {
    const uri = pathToFileURL(path.join(here, 'lsp', 'burst.tg')).href;
    own.connection.sendNotification(lsp.DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'tg', version: 1, text: 'print(a1)\n' },
    });
    for (const version of [2, 3, 4])
      own.connection.sendNotification(lsp.DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version }, contentChanges: [{ text: `print(a${version})\n` }],
      });
    assert.deepEqual((await own.nextDiagnostics(uri)).map((d) => d.message), ['`a4` is not defined']);
    // nothing else was published meanwhile, or later
    await own.request(lsp.HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } });
    assert.equal((own.diagnostics.get(uri) || []).length, 0);
  });
});

test('@graph: calls that run eagerly or stop the run are warnings; outside @graph nothing', { skip }, async () => {
  const { uri: graphUri, text, diagnostics, listed } = await openFixture('graph.tg');
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

test('calls of methods and of other modules\' functions are checked', { skip }, async () => {
  const { uri: methodsUri, text, diagnostics, listed } = await openFixture('methods.tg');
  // [message, where it starts, the length of the range] — the method's name, or the keyword
  const expect = [
    ['append: takes 1 argument but 2 were given', at(text, 'append(1'), 'append'.length],
    ['sort: unknown keyword argument `kye`; did you mean `key`?', at(text, 'kye'), 'kye'.length],
    ['get: takes 1 to 2 arguments but 0 were given', at(text, 'get()'), 'get'.length],
    ['split: takes 0 to 2 arguments but 3 were given', at(text, 'split(",", 1'), 'split'.length],
    ['sum: unknown keyword argument `axes`; did you mean `axis`?', at(text, 'axes'), 'axes'.length],
    ['reshape: takes 1 argument after the tensor it is called on, but 2 were given', at(text, 'reshape((2'), 'reshape'.length],
    ['tolist: takes no arguments but 1 was given', at(text, 'tolist(1)'), 'tolist'.length],
    ['scale: takes 2 arguments but 3 were given', at(text, 'scale(x'), 'scale'.length],
    ['adam: unknown keyword argument `beta1`', at(text, 'beta1'), 'beta1'.length],
    // a parameter: a list's append is the only `append`; `count=` fits neither a string's split nor the builtin's
    ['append: takes 1 argument but 2 were given', at(text, 'append(1', 0, 1), 'append'.length],
    ['split: unknown keyword argument `count`', at(text, 'count=2'), 'count'.length],
  ];
  for (const [message, start, length] of expect) {
    const d = diagnostics.find((x) => x.message === message && x.range.start.line === start.line);
    assert.ok(d, `no '${message}' at line ${start.line} among ${listed}`);
    assert.equal(d.severity, 1, message);
    assert.deepEqual(d.range, { start, end: { line: start.line, character: start.character + length } }, message);
  }
  // the calls that fit (varargs reshape, keywords, the parameter's pop / count / sum) are not reported
  assert.equal(diagnostics.length, expect.length, listed);
  // signature help and hover of a list method come from the same table
  const help = await s.request(lsp.SignatureHelpRequest.type, {
    textDocument: { uri: methodsUri }, position: at(text, 'xs.sort(', 'xs.sort('.length),
  });
  assert.equal(help.signatures[0].label, 'sort(*, key=None, reverse=False)');
  const hover = await s.request(lsp.HoverRequest.type, { textDocument: { uri: methodsUri }, position: at(text, 'append(1') });
  assert.match(hover.contents.value, /list\.append\(value, \/\)/);
  // a builtin called as a method: its signature without the receiver
  const sum = await s.request(lsp.SignatureHelpRequest.type, {
    textDocument: { uri: methodsUri }, position: at(text, 'x.sum(0', 'x.sum('.length),
  });
  assert.ok(sum.signatures.some((x) => x.label === 'sum(axis=None, keepdims=False, *, dtype=None)'), JSON.stringify(sum.signatures));
  await s.connection.sendNotification(lsp.DidCloseTextDocumentNotification.type, { textDocument: { uri: methodsUri } });
});

test('every syntax error of a file; names a broken statement may define are not reported', { skip }, async () => {
  const { uri, text, diagnostics, listed } = await openFixture('syntax.tg');
  const expect = [
    ['expected an expression, found end of line', at(text, 'x +', 'x '.length)],
    ["expected an expression, found '*'", at(text, '+*', 1)],
    ["expected ':' after the condition, found end of line", at(text, 'if y', 'if '.length)],
    ["unmatched ')'", at(text, 'z = )', 'z = '.length)],
    ['`never_defined` is not defined', at(text, 'never_defined')],
  ];
  assert.deepEqual(diagnostics.map((d) => [d.message, d.range.start]), expect, listed);
  assert.ok(diagnostics.every((d) => d.severity === 1), listed);
  await s.connection.sendNotification(lsp.DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  await s.nextDiagnostics(uri);  // (cleared)
});

test('builtins that take more than their op: the builtin\'s checks, not the op\'s', { skip }, async () => {
  const { uri, text, diagnostics, listed } = await openFixture('builtins.tg');
  // norm's matrix and p-norms (the op's shape rule refuses them) and eye's `k` are fine; `foo` is not
  assert.deepEqual(diagnostics.map((d) => [d.message, d.range.start]),
    [['eye: unknown keyword argument `foo`', at(text, 'foo')]], listed);
  // one signature for norm, though docs/builtins.md has a row for the op and one for the builtin
  const hover = await s.request(lsp.HoverRequest.type, { textDocument: { uri }, position: at(text, 'norm(') });
  assert.equal(hover.contents.value.split('\n').filter((l) => l.startsWith('norm(')).length, 1, hover.contents.value);
  await s.connection.sendNotification(lsp.DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  await s.nextDiagnostics(uri);  // (cleared)
});

test('hover: builtin reference, function and comment, type of a variable', { skip }, async () => {
  const builtin = await s.request(lsp.HoverRequest.type, { ...doc, position: at(mainText, 'zeros((2') });
  assert.match(builtin.contents.value, /zeros\(shape, dtype=f32\)/);
  assert.match(builtin.contents.value, /a tensor of zeros/);  // its line of docs/builtins.md
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

test('references search the workspace: files that are not open are read from disk, open ones win', { skip }, async () => {
  // util.tg and uses_util.tg are never opened: definition reads the one, references find the other
  const usesPath = path.join(here, 'lsp', 'uses_util.tg');
  const usesUri = pathToFileURL(usesPath).href;
  const usesText = fs.readFileSync(usesPath, 'utf8');
  const scaleAt = at(mainText, 'scale(x', 1);
  const def = await s.request(lsp.DefinitionRequest.type, { ...doc, position: scaleAt });
  assert.equal(def.uri, pathToFileURL(utilPath).href);
  const refs = async () =>
    s.request(lsp.ReferencesRequest.type, { ...doc, position: scaleAt, context: { includeDeclaration: false } });
  const onDisk = (await refs()).filter((r) => r.uri === usesUri);
  assert.deepEqual(onDisk.map((r) => r.range.start), [at(usesText, 'scale(')], JSON.stringify(onDisk));
  // in a subfolder of the workspace (rootUri)
  const deepPath = path.join(here, 'lsp', 'sub', 'deep.tg');
  const deep = (await refs()).filter((r) => r.uri === pathToFileURL(deepPath).href);
  assert.deepEqual(deep.map((r) => r.range.start), [at(fs.readFileSync(deepPath, 'utf8'), 'scale(')]);
  // from the module's own file, not open either: the same uses
  const fromUtil = await s.request(lsp.ReferencesRequest.type, {
    textDocument: { uri: def.uri }, position: def.range.start, context: { includeDeclaration: true },
  });
  assert.ok(fromUtil.some((r) => r.uri === usesUri) && fromUtil.some((r) => r.uri === mainUri), JSON.stringify(fromUtil));
  // opened with unsaved text, its text is what is searched
  const edited = '# an unsaved line\n' + usesText + 'print(util.scale(1.0))\n';
  await s.connection.sendNotification(lsp.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: usesUri, languageId: 'tg', version: 1, text: edited },
  });
  await s.nextDiagnostics(usesUri);
  const open = (await refs()).filter((r) => r.uri === usesUri).map((r) => r.range.start);
  assert.deepEqual(open, [at(edited, 'scale('), at(edited, 'scale(', 0, 1)]);
  await s.connection.sendNotification(lsp.DidCloseTextDocumentNotification.type, { textDocument: { uri: usesUri } });
  await s.nextDiagnostics(usesUri);  // (cleared)
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

test('completion while typing: after a list\'s, dict\'s or string\'s dot, and after import', { skip }, async () => {
  // an unsaved document, each dot the line being typed (a syntax error)
  const uri = pathToFileURL(path.join(here, 'lsp', 'typing.tg')).href;
  const text = 'xs = [1, 2]\nd = {"a": 1}\ns = "ab"\nxs.\nd.\ns.\nimport \nprint(xs, d, s)\n';
  await s.connection.sendNotification(lsp.DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'tg', version: 1, text },
  });
  await s.nextDiagnostics(uri);
  const labels = async (word, delta) =>
    (await s.request(lsp.CompletionRequest.type, { textDocument: { uri }, position: at(text, word, delta) })).items.map((i) => i.label);
  const list = await labels('xs.\n', 3);
  assert.ok(list.includes('append') && list.includes('pop') && !list.includes('keys') && !list.includes('reshape'), list.join(' '));
  const dict = await labels('d.\n', 2);
  assert.ok(dict.includes('keys') && dict.includes('setdefault') && !dict.includes('append'), dict.join(' '));
  const str = await labels('\ns.\n', 3);
  assert.ok(str.includes('split') && str.includes('startswith') && !str.includes('keys'), str.join(' '));
  // the modules `import` would find: beside the file (util.tg) and shipped in tg (optim)
  const modules = await labels('import ', 'import '.length);
  assert.ok(modules.includes('util') && modules.includes('optim') && !modules.includes('zeros'), modules.join(' '));
  await s.connection.sendNotification(lsp.DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  await s.nextDiagnostics(uri);  // (cleared)
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

// The test scripts (tests/scripts) whose NAME.tg has a NAME.EXT beside it
// (.out, .err) and, when `without` is given, no NAME.WITHOUT.
function testScripts(ext, without) {
  const root = path.join(here, '..', '..', '..', 'tests', 'scripts');
  const files = fs.readdirSync(root, { recursive: true })
    .filter((f) => f.endsWith('.tg'))
    .map((f) => path.join(root, f))
    .filter((f) => fs.existsSync(f.replace(/\.tg$/, ext)) && !(without && fs.existsSync(f.replace(/\.tg$/, without))));
  return { root, files };
}

// Each file opened (and closed) in a server of its own: its diagnostics, by file.
async function diagnoseFiles(files) {
  return withServer({ diagnosticsDelay: 0 }, async (own) => {
    const out = new Map();
    for (const file of files) {
      const uri = pathToFileURL(file).href;
      await own.connection.sendNotification(lsp.DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'tg', version: 1, text: fs.readFileSync(file, 'utf8') },
      });
      out.set(file, await own.nextDiagnostics(uri));
      await own.connection.sendNotification(lsp.DidCloseTextDocumentNotification.type, { textDocument: { uri } });
      await own.nextDiagnostics(uri);  // (cleared)
    }
    return out;
  });
}

// Every test script that runs (NAME.out without NAME.err) gets no error:
// what the server reports wrongly on valid code shows up here. A script
// whose folder has lib/ imports through $TG_PATH (tests/run_scripts.py),
// which the server is not given.
test('no errors on the test scripts that run', { skip }, async () => {
  const { root, files } = testScripts('.out', '.err');
  assert.ok(files.length > 100, `${files.length} scripts`);
  const wrong = [];
  for (const [file, diagnostics] of await diagnoseFiles(files)) {
    const viaLib = fs.existsSync(path.join(path.dirname(file), 'lib'));
    for (const d of diagnostics)
      if (d.severity === 1 && !(viaLib && d.message.startsWith('no module named')))
        wrong.push(`${path.relative(root, file)}:${d.range.start.line + 1}: ${d.message}`);
  }
  assert.deepEqual(wrong, []);
});

// The test scripts that stop with an error (NAME.err: `NAME.tg:LINE:COL:
// error: MESSAGE`): where the server reports an error on that line, one of
// them is the same message (the server's range may be narrower: the keyword,
// the operator). Most of these errors depend on values and are found only by
// running; the ones the server finds are counted.
const wordedOtherwise = {
  // where's own check of its one- and three-argument forms; the server binds the three-argument signature
  'numpy/bad_where_one_branch.tg': 'where: missing argument `b`',
};
test('errors the server finds before running are worded as tg run words them', { skip }, async () => {
  const { root, files } = testScripts('.err');
  const differ = [];
  let same = 0;
  for (const [file, diagnostics] of await diagnoseFiles(files)) {
    const rel = path.relative(root, file);
    const first = fs.readFileSync(file.replace(/\.tg$/, '.err'), 'utf8').split('\n')[0];
    const m = first.match(/^(.*?):(\d+):\d+: error: (.*)$/);
    if (!m || path.basename(m[1]) !== path.basename(file)) continue;  // stopped in another file
    // (the folder an import looked in is named as run: relative to the working directory)
    const words = (message) => message.replace(/ \(looked for (\S+) in .*\)$/, ' (looked for $1)');
    const on = diagnostics.filter((d) => d.severity === 1 && d.range.start.line === Number(m[2]) - 1).map((d) => words(d.message));
    if (!on.length) continue;
    if (on.includes(words(m[3]))) ++same;
    else if (!on.includes(wordedOtherwise[rel])) differ.push(`${rel}:${m[2]}: run: ${m[3]}; server: ${on.join(' | ')}`);
  }
  assert.deepEqual(differ, []);
  assert.ok(same >= 20, `the server found ${same} of the errors`);
});

// Every builtin of docs/builtins.md called wrongly — one argument too many,
// an unknown keyword, none at all, both, a parameter given twice — in one
// file the server checks and, line by line, in one `tg repl` (which goes on
// after an error): where both report an error, it is the same message, and
// the server reports none that running does not.
function wrongCalls() {
  const docs = fs.readFileSync(path.join(here, '..', '..', '..', 'docs', 'builtins.md'), 'utf8');
  const forms = new Map();
  for (const row of docs.split('\n').filter((l) => l.startsWith('| `')))
    for (const [, name, params] of row.split('|')[1].matchAll(/`([A-Za-z_]\w*)\(([^`]*)\)`/g))
      if (!params.includes('...')) forms.set(name, [...(forms.get(name) || []), params]);
  forms.delete('breakpoint');  // (would stop the REPL)
  const calls = [];
  for (const [name, all] of forms) {
    const most = Math.max(...all.map((p) => p.split(',').filter((q) => q.trim() && !/^[*/]/.test(q.trim())).length));
    const many = Array(most + 1).fill('1').join(', ');
    const first = all[0].split(/[=,]/)[0].trim().replace(/^\*+/, '') || 'x';
    for (const args of [many, '1, zzzq=1', '', `${many}, zzzq=1`, `1, ${first}=1`]) calls.push(`print(${name}(${args}))`);
  }
  return calls;
}

test('every builtin called wrongly: the server says what tg run says', { skip }, async () => {
  const calls = wrongCalls();
  assert.ok(calls.length > 1000, `${calls.length} calls`);
  const text = calls.join('\n') + '\n';
  // running: `<stdin:N>:1:C: error: MESSAGE` for input N
  const repl = spawn(TG_BIN, ['repl'], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  repl.stderr.on('data', (d) => (stderr += d));
  repl.stdin.end(text);
  await new Promise((resolve) => repl.on('exit', resolve));
  const ran = new Map();
  for (const [, n, message] of stderr.matchAll(/^<stdin:(\d+)>:\d+:\d+: error: (.*)$/gm)) ran.set(Number(n) - 1, message);
  assert.ok(ran.size > 1000, `${ran.size} errors from tg repl`);
  const reported = await withServer({ diagnosticsDelay: 0 }, async (own) => {
    const uri = pathToFileURL(path.join(here, 'lsp', 'wrong_calls.tg')).href;
    await own.connection.sendNotification(lsp.DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'tg', version: 1, text },
    });
    return (await own.nextDiagnostics(uri)).filter((d) => d.severity === 1);
  });
  const differ = [];
  let same = 0;
  for (const d of reported) {
    const line = d.range.start.line, run = ran.get(line);
    if (run === d.message) ++same;
    else differ.push(`${calls[line]}: run: ${run ?? '(no error)'}; server: ${d.message}`);
  }
  assert.deepEqual(differ, []);
  assert.ok(same > 1000, `the same message on ${same} lines`);
});

test('bad requests get error responses and the server goes on', { skip }, async () => {
  await assert.rejects(s.request('textDocument/noSuchThing', doc), (e) => e.code === lsp.ErrorCodes.MethodNotFound);
  await assert.rejects(s.request(lsp.HoverRequest.type, { textDocument: {} }), (e) => e.code === lsp.ErrorCodes.InvalidParams);
  const still = await s.request(lsp.HoverRequest.type, { ...doc, position: at(mainText, 'zeros((2') });
  assert.ok(still.contents.value.length > 0);
});

// Raw frames: what a protocol library never sends. (With `--stdio`, which
// clients that start servers the npm way add.)
test('malformed messages: error responses, never a crash; shutdown and exit', { skip }, async () => {
  const child = spawn(TG_BIN, ['lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
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
