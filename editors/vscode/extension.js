// The tg debug type: VS Code starts `tg dap` (the Debug Adapter Protocol
// over stdin/stdout, docs/debugging.md) for each debug session; the launch
// configuration's `tgPath` names the tg command (default: tg on PATH).
const vscode = require('vscode');

function activate(context) {
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory('tg', {
      createDebugAdapterDescriptor(session) {
        const tg = session.configuration.tgPath || 'tg';
        return new vscode.DebugAdapterExecutable(tg, ['dap']);
      },
    }),
  );
}

function deactivate() {}

module.exports = { activate, deactivate };
