// The tg extension (docs/editors.md): for .tg files VS Code starts the
// language server `tg lsp` through vscode-languageclient (diagnostics as you
// type, hover, go to definition, references, symbols, completion, signature
// help), and for each debug session the debug adapter `tg dap` (the Debug
// Adapter Protocol over stdin/stdout, docs/debugging.md). The setting
// `tg.path` names the tg command (default: tg on PATH); a launch
// configuration's `tgPath` overrides it for that session.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function tgCommand() {
  return vscode.workspace.getConfiguration('tg').get('path') || 'tg';
}

function startLanguageServer(context) {
  if (!vscode.workspace.getConfiguration('tg').get('languageServer', true)) return;
  // no `transport`: the client then talks over the process's stdin/stdout
  // without adding `--stdio` to the arguments (tg lsp accepts it too)
  const server = { command: tgCommand(), args: ['lsp'] };
  client = new LanguageClient('tg', 'tg language server', { run: server, debug: server }, {
    documentSelector: [{ language: 'tg' }],
  });
  context.subscriptions.push(client);
  client.start().catch((e) => {
    vscode.window.showWarningMessage(`tg: cannot start the language server (${tgCommand()} lsp): ${e.message}`);
  });
}

function activate(context) {
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory('tg', {
      createDebugAdapterDescriptor(session) {
        const tg = session.configuration.tgPath || tgCommand();
        return new vscode.DebugAdapterExecutable(tg, ['dap']);
      },
    }),
  );
  startLanguageServer(context);
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
