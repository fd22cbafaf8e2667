// extension.js outside VS Code: with `vscode` and the language client
// replaced by recorders, activating the extension registers the `tg` debug
// adapter (`tg dap`) and starts the language server (`tg lsp`) through
// vscode-languageclient, with the command the `tg.path` setting names.
// The real client library must be installed (it is packaged with the
// extension: ctest editor_package).
// Run: node --test test/extension.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = Module.createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));

function activateWith(settings) {
  const record = { clients: [], adapters: [] };
  const fakeVscode = {
    workspace: { getConfiguration: () => ({ get: (key, fallback) => (key in settings ? settings[key] : fallback) }) },
    window: { showWarningMessage: (m) => record.warnings.push(m) },
    debug: { registerDebugAdapterDescriptorFactory: (type, factory) => record.adapters.push({ type, factory }) },
    DebugAdapterExecutable: class {
      constructor(command, args) {
        Object.assign(this, { command, args });
      }
    },
  };
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      Object.assign(this, { id, name, serverOptions, clientOptions });
      record.clients.push(this);
    }
    start() {
      return Promise.resolve();
    }
    stop() {}
    dispose() {}
  }
  const fakeClient = { LanguageClient };
  const load = Module._load;
  Module._load = function (request, ...rest) {
    if (request === 'vscode') return fakeVscode;
    if (request === 'vscode-languageclient/node') return fakeClient;
    return load.call(this, request, ...rest);
  };
  record.warnings = [];
  try {
    const file = path.join(here, '..', 'extension.js');
    delete require.cache[file];
    const extension = require(file);
    const context = { subscriptions: [] };
    extension.activate(context);
    record.subscriptions = context.subscriptions;
  } finally {
    Module._load = load;
  }
  return record;
}

test('the language client starts `tg lsp` for tg documents', () => {
  const r = activateWith({ path: '/opt/tg/bin/tg' });
  assert.equal(r.clients.length, 1);
  const c = r.clients[0];
  assert.deepEqual(c.serverOptions.run, { command: '/opt/tg/bin/tg', args: ['lsp'] });
  assert.deepEqual(c.clientOptions.documentSelector, [{ language: 'tg' }]);
  assert.ok(r.subscriptions.includes(c));
});

test('the debug adapter is `tg dap`; a launch configuration may name another tg', () => {
  const r = activateWith({});
  assert.equal(r.adapters[0].type, 'tg');
  const plain = r.adapters[0].factory.createDebugAdapterDescriptor({ configuration: {} });
  assert.deepEqual([plain.command, plain.args], ['tg', ['dap']]);
  const named = r.adapters[0].factory.createDebugAdapterDescriptor({ configuration: { tgPath: '/x/tg' } });
  assert.equal(named.command, '/x/tg');
});

test('tg.languageServer false: no language server', () => {
  assert.equal(activateWith({ languageServer: false }).clients.length, 0);
});

test('the real language client is installed (it ships in the package)', () => {
  assert.ok(require.resolve('vscode-languageclient/node'));
});
