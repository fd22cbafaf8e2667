// The TextMate grammar (syntaxes/tg.tmLanguage.json), tokenized by the
// library VS Code itself uses (vscode-textmate over vscode-oniguruma): each
// case names a piece of a line and the scope it must have; every example
// script in the repository tokenizes with no piece left unscoped inside
// strings or comments. Run: node --test test/ (docs/debugging.md "VS Code").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
const registry = new vsctm.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
    createOnigString: (s) => new oniguruma.OnigString(s),
  }),
  loadGrammar: async (scope) => {
    if (scope !== 'source.tg') return null;
    const file = path.join(here, '..', 'syntaxes', 'tg.tmLanguage.json');
    return vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
  },
});
const grammar = await registry.loadGrammar('source.tg');

// [text, scopes] for each token of the lines of `source`.
function tokenize(source) {
  let state = vsctm.INITIAL;
  const out = [];
  for (const line of source.split('\n')) {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) out.push([line.slice(t.startIndex, t.endIndex), t.scopes]);
    state = r.ruleStack;
  }
  return out;
}

// The scopes of the first token whose text is `piece` (exactly).
function scopesOf(source, piece) {
  const hit = tokenize(source).find(([text]) => text === piece);
  assert.ok(hit, `no token "${piece}" in ${JSON.stringify(source)}: ${JSON.stringify(tokenize(source))}`);
  return hit[1];
}

function expectScope(source, piece, scope) {
  const scopes = scopesOf(source, piece);
  assert.ok(scopes.some((s) => s.startsWith(scope)), `"${piece}" in ${JSON.stringify(source)} has ${scopes}, not ${scope}`);
}

const cases = [
  // keywords
  ['def f(x):', 'def', 'storage.type.function'],
  ['def f(x):', 'f', 'entity.name.function.tg'],
  ['    return x', 'return', 'keyword.control'],
  ['if a and not b:', 'if', 'keyword.control'],
  ['if a and not b:', 'and', 'keyword.operator.logical'],
  ['if a and not b:', 'not', 'keyword.operator.logical'],
  ['elif x is None:', 'elif', 'keyword.control'],
  ['elif x is None:', 'None', 'constant.language.none'],
  ['while i < n:', 'while', 'keyword.control'],
  ['for row in x:', 'in', 'keyword.control'],
  ['f = lambda t: t * 2', 'lambda', 'keyword.control'],
  ['import optim as o', 'import', 'keyword.control'],
  ['ok = True', 'True', 'constant.language.boolean'],
  ['y = zeros((2,), dtype=f64)', 'f64', 'support.type.dtype'],
  // decorators
  ['@graph', 'graph', 'entity.name.function.decorator'],
  ['@graph(static=("n",))', 'graph', 'entity.name.function.decorator'],
  // numbers
  ['x = 42', '42', 'constant.numeric.integer'],
  ['x = 1_000', '1_000', 'constant.numeric.integer'],
  ['x = 3.25', '3.25', 'constant.numeric.float'],
  ['x = 1e-6', '1e-6', 'constant.numeric.float'],
  ['x = .5', '.5', 'constant.numeric.float'],
  ['x = 0xff', '0xff', 'constant.numeric.hex'],
  // strings and f-strings
  ['s = "a b"', 'a b', 'string.quoted.double'],
  ["s = 'a b'", 'a b', 'string.quoted.single'],
  ['s = "tab\\there"', '\\t', 'constant.character.escape'],
  ['print(f"loss {loss:.4f} at {i}")', 'loss ', 'string.interpolated.double'],
  ['print(f"loss {loss:.4f} at {i}")', 'loss', 'meta.fstring.field'],
  ['print(f"loss {loss:.4f} at {i}")', ':.4f', 'storage.modifier.format-spec'],
  ['print(f"{x!r}")', '!r', 'storage.modifier.conversion'],
  ['print(f"{{literal}}")', '{{', 'constant.character.escape'],
  // comments
  ['x = 1  # the count', '# the count'.slice(1), 'comment.line.number-sign'],
  ['# a whole line', ' a whole line', 'comment.line.number-sign'],
  // calls and operators
  ['y = tanh(x) @ w', 'tanh', 'entity.name.function.call'],
  ['y = tanh(x) @ w', '@', 'keyword.operator.arithmetic'],
  ['y **= 2', '**=', 'keyword.operator.assignment'],
  ['a == b', '==', 'keyword.operator.comparison'],
];

for (const [source, piece, scope] of cases) {
  test(`${JSON.stringify(source)}: ${JSON.stringify(piece)} is ${scope}`, () => expectScope(source, piece, scope));
}

test('"#" inside a string is not a comment', () => {
  const scopes = scopesOf('s = "a # b"', 'a # b');
  assert.ok(!scopes.some((s) => s.startsWith('comment')), String(scopes));
});

test('every example script tokenizes, and its keywords are scoped', () => {
  const root = path.join(here, '..', '..', '..');
  const dirs = ['examples', 'modules'].map((d) => path.join(root, d));
  let files = 0;
  for (const dir of dirs) {
    for (const name of fs.readdirSync(dir, { recursive: true })) {
      if (!String(name).endsWith('.tg')) continue;
      const tokens = tokenize(fs.readFileSync(path.join(dir, String(name)), 'utf8'));
      for (const [text, scopes] of tokens) {
        if (/^(def|return|while|for|if)$/.test(text) && !scopes.some((s) => s.includes('comment') || s.includes('string')))
          assert.ok(scopes.length > 1, `${name}: "${text}" is unscoped`);
      }
      files++;
    }
  }
  assert.ok(files >= 3, `only ${files} example scripts found`);
});
