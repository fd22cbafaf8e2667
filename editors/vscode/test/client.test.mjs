// The extension as VS Code runs it: extension.js activated with the real
// language client (vscode-languageclient) on a stand-in for VS Code's API
// (test/fake_vscode.cjs). The client starts `tg lsp` with the command the
// `tg.path` setting names, sends the documents the editor opens and edits,
// puts the server's diagnostics in its collection and answers the editor's
// hover, definition, references, completion, signature help and symbol
// requests through the providers it registers (only those: what the server
// announces); deactivating the extension stops the server.
// TG_BIN names the tg command (ctest editor_client sets it); without it
// every case is skipped.
// Run: TG_BIN=build/tg node --test test/client.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = Module.createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const fake = require('./fake_vscode.cjs');
const TG_BIN = process.env.TG_BIN;
const skip = TG_BIN ? false : 'TG_BIN is not set';
const TIMEOUT = 10000;

const mainPath = path.join(here, 'lsp', 'main.tg');
const mainText = fs.readFileSync(mainPath, 'utf8');
let extension;
let main;

// The `nth` occurrence of `word` in the document (plus `delta` characters), as a position.
function at(document, word, delta = 0, nth = 0) {
  let offset = -1;
  for (let i = 0; i <= nth; ++i) offset = document.getText().indexOf(word, offset + 1);
  assert.ok(offset >= 0, `'${word}' is not in the text`);
  return document.positionAt(offset + delta);
}

// The diagnostics the client sets for `document` once `ready` holds for them.
function diagnosticsWhen(document, ready) {
  const uri = document.uri.toString();
  return new Promise((resolve, reject) => {
    const check = () => {
      const list = fake.diagnostics.get(uri);
      if (list && ready(list)) return (clearTimeout(timer), listener.dispose(), resolve(list)), true;
      return false;
    };
    const timer = setTimeout(() => (listener.dispose(), reject(new Error(`no diagnostics for ${uri}: ${JSON.stringify(fake.messages)}`))), TIMEOUT);
    const listener = fake.diagnosticsSet.event((u) => u === uri && check());
    check();
  });
}

// The one provider of `kind` the client registered for tg documents.
function provider(kind) {
  const list = fake.providers[kind] || [];
  assert.equal(list.length, 1, `${kind} providers: ${list.length}`);
  return list[0].provider;
}

const token = () => new fake.CancellationTokenSource().token;

before(async () => {
  if (skip) return;
  const load = Module._load;
  Module._load = function (request, ...rest) {
    return request === 'vscode' ? fake.vscode : load.call(this, request, ...rest);
  };
  fake.settings['tg.path'] = TG_BIN;
  extension = require('../extension.js');
  extension.activate({ subscriptions: [] });
  main = fake.openDocument(mainPath, 'tg', mainText);
  // the providers are registered once the server has answered initialize
  await diagnosticsWhen(main, (list) => list.length > 0);
});

after(async () => {
  if (skip) return;
  fake.closeDocument(main);
  await extension.deactivate();
});

test('diagnostics reach the editor with their ranges, severities and tags', { skip }, async () => {
  const list = await diagnosticsWhen(main, (l) => l.length > 0);
  const find = (m) => list.find((d) => d.message.startsWith(m));
  const undef = find('`undefined_nm` is not defined');
  assert.ok(undef, JSON.stringify(list.map((d) => d.message)));
  assert.equal(undef.severity, fake.vscode.DiagnosticSeverity.Error);
  assert.deepEqual([undef.range.start, undef.range.end], [at(main, 'undefined_nm'), at(main, 'undefined_nm', 'undefined_nm'.length)]);
  const unused = find('`optim` is imported but never used');
  assert.equal(unused.severity, fake.vscode.DiagnosticSeverity.Hint);
  assert.deepEqual(unused.tags, [fake.vscode.DiagnosticTag.Unnecessary]);
  assert.ok(find('matmul: shapes (2, 3) and (4, 5) are not aligned'));
});

test('an edit is sent to the server and analysed', { skip }, async () => {
  fake.editDocument(main, 'undefined_nm', 'x');
  await diagnosticsWhen(main, (l) => !l.some((d) => d.message.includes('undefined_nm')));
  fake.editDocument(main, 'print(x, z', 'print(undefined_nm, z');
  const back = await diagnosticsWhen(main, (l) => l.some((d) => d.message.includes('undefined_nm')));
  assert.equal(main.getText(), mainText);
  assert.ok(back.some((d) => d.message.startsWith('area: takes 2 arguments but 3 were given')));
});

test('hover, definition, references, completion, signature help and symbols through the registered providers', { skip }, async () => {
  const hover = await provider('Hover').provideHover(main, at(main, 'zeros((2'), token());
  assert.match(hover.contents.map((c) => c.value).join('\n'), /zeros\(shape, dtype=f32\)/);
  const variable = await provider('Hover').provideHover(main, at(main, 't = '), token());
  assert.match(variable.contents.map((c) => c.value).join('\n'), /t: f32\[3, 2\]/);

  const definition = await provider('Definition').provideDefinition(main, at(main, 'scale(x', 1), token());
  const target = Array.isArray(definition) ? definition[0] : definition;
  assert.equal((target.uri || target.targetUri).fsPath, path.join(here, 'lsp', 'util.tg'));

  const references = await provider('Reference').provideReferences(
    main, at(main, 'x = zeros'), { includeDeclaration: true }, token());
  assert.ok(references.length >= 3 && references.every((r) => r.uri.fsPath === mainPath), JSON.stringify(references));

  const completion = await provider('CompletionItem').provideCompletionItems(
    main, at(main, 'util.scale', 'util.'.length), token(),
    { triggerKind: fake.vscode.CompletionTriggerKind.TriggerCharacter, triggerCharacter: '.' });
  const labels = (Array.isArray(completion) ? completion : completion.items).map((i) => i.label);
  assert.ok(labels.includes('scale') && labels.includes('bias'), labels.join(' '));

  const help = await provider('SignatureHelp').provideSignatureHelp(
    main, at(main, 'area(1, 2', 'area(1, '.length), token(),
    { triggerKind: fake.vscode.SignatureHelpTriggerKind.Invoke, isRetrigger: false });
  assert.equal(help.signatures[help.activeSignature].label, 'area(w, h)');

  const symbols = await provider('DocumentSymbol').provideDocumentSymbols(main, token());
  assert.ok(symbols.some((s) => s.name === 'area') && symbols.some((s) => s.name === 'x'), JSON.stringify(symbols.map((s) => s.name)));
});

test('the client registered a provider for each feature the server announces, and showed no error', { skip }, async () => {
  assert.deepEqual(Object.keys(fake.providers).sort(),
    ['CompletionItem', 'Definition', 'DocumentSymbol', 'Hover', 'Reference', 'SignatureHelp']);
  assert.deepEqual(fake.messages.filter((m) => m.error || m.warning), []);
});
