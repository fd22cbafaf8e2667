// The part of VS Code's extension API (the `vscode` module) that
// vscode-languageclient uses to start a server, keep documents in sync and
// answer an editor's requests, made of plain objects: the real client
// library runs on it outside VS Code (test/client.test.mjs). Documents are
// opened and edited with `openDocument` / `editDocument`; what the client
// registers (its providers, the diagnostics it sets, its messages) is
// recorded for the test to call and read. Anything else the library reads
// is a stand-in that does nothing (`missing` lists what was asked for).
'use strict';

const missing = new Set();

// A value that is a no-op function, a constructor and an object at once.
function standIn(name) {
  const target = function () {};
  return new Proxy(target, {
    get: (t, p) => (p === 'then' || typeof p === 'symbol' ? undefined : p in t ? t[p] : standIn(`${name}.${String(p)}`)),
    apply: () => { missing.add(name); return { dispose() {} }; },
    construct: (t, args) => { missing.add(name); return { args }; },
  });
}

// Members not defined here are stand-ins (enum values are their names).
function withStandIns(name, object) {
  return new Proxy(object, {
    get: (o, p) => {
      if (p in o || typeof p === 'symbol' || p === 'then') return o[p];
      missing.add(`${name}.${String(p)}`);
      if (/(Kind|Severity|Tag)$/.test(name)) return String(p);  // an enum's value: its name
      return /(Kind|Severity|Tag)$/.test(String(p)) ? withStandIns(String(p), {}) : standIn(`${name}.${String(p)}`);
    },
  });
}

class Disposable {
  constructor(f) { this.f = f; }
  dispose() { if (this.f) this.f(); this.f = undefined; }
  static from(...items) { return new Disposable(() => items.forEach((i) => i && i.dispose && i.dispose())); }
}

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (listener, thisArg, disposables) => {
      const l = thisArg ? listener.bind(thisArg) : listener;
      this.listeners.add(l);
      const d = new Disposable(() => this.listeners.delete(l));
      if (Array.isArray(disposables)) disposables.push(d);
      return d;
    };
  }
  fire(value) { for (const l of [...this.listeners]) l(value); }
  dispose() { this.listeners.clear(); }
}

class Uri {
  constructor(scheme, path) { this.scheme = scheme; this.path = path; this.fsPath = path; this.authority = ''; this.query = ''; this.fragment = ''; }
  static file(path) { return new Uri('file', path); }
  static parse(text) {
    const u = new URL(text);
    return new Uri(u.protocol.replace(/:$/, ''), decodeURIComponent(u.pathname));
  }
  toString() { return `${this.scheme}://${this.path.split('/').map(encodeURIComponent).join('/')}`; }
  toJSON() { return this.toString(); }
  with(change) { return new Uri(change.scheme ?? this.scheme, change.path ?? this.path); }
}

class Position {
  constructor(line, character) { this.line = line; this.character = character; }
  isBefore(o) { return this.line < o.line || (this.line === o.line && this.character < o.character); }
  isEqual(o) { return this.line === o.line && this.character === o.character; }
  translate(dl = 0, dc = 0) { return new Position(this.line + dl, this.character + dc); }
}

class Range {
  constructor(a, b, c, d) {
    [this.start, this.end] = a instanceof Position ? [a, b] : [new Position(a, b), new Position(c, d)];
  }
  get isEmpty() { return this.start.isEqual(this.end); }
}

class Location { constructor(uri, range) { this.uri = uri; this.range = range instanceof Position ? new Range(range, range) : range; } }
class Diagnostic { constructor(range, message, severity) { Object.assign(this, { range, message, severity }); } }
class MarkdownString {
  constructor(value = '') { this.value = value; }
  appendMarkdown(v) { this.value += v; return this; }
  appendText(v) { this.value += v; return this; }
  appendCodeblock(code, language = '') { this.value += '\n```' + language + '\n' + code + '\n```\n'; return this; }
}
class Hover { constructor(contents, range) { this.contents = Array.isArray(contents) ? contents : [contents]; this.range = range; } }
class CompletionItem { constructor(label, kind) { Object.assign(this, { label, kind }); } }
class CompletionList { constructor(items = [], isIncomplete = false) { Object.assign(this, { items, isIncomplete }); } }
class SignatureHelp { constructor() { this.signatures = []; this.activeSignature = 0; this.activeParameter = 0; } }
class SignatureInformation { constructor(label, documentation) { Object.assign(this, { label, documentation, parameters: [] }); } }
class ParameterInformation { constructor(label, documentation) { Object.assign(this, { label, documentation }); } }
class DocumentSymbol {
  constructor(name, detail, kind, range, selectionRange) { Object.assign(this, { name, detail, kind, range, selectionRange, children: [] }); }
}
class SymbolInformation { constructor(name, kind, containerName, location) { Object.assign(this, { name, kind, containerName, location }); } }
class TextEdit { constructor(range, newText) { Object.assign(this, { range, newText }); } }
class CancellationError extends Error {}
class CancellationTokenSource {
  constructor() {
    const emitter = new EventEmitter();
    this.token = { isCancellationRequested: false, onCancellationRequested: emitter.event };
    this.cancel = () => { this.token.isCancellationRequested = true; emitter.fire(); };
    this.dispose = () => emitter.dispose();
  }
}

// ---- documents
class TextDocument {
  constructor(uri, languageId, text) { Object.assign(this, { uri, languageId, version: 1, text, isClosed: false, isUntitled: false, isDirty: false }); }
  get fileName() { return this.uri.fsPath; }
  get lineCount() { return this.text.split('\n').length; }
  getText(range) { return range ? this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end)) : this.text; }
  offsetAt(p) {
    const lines = this.text.split('\n');
    let offset = 0;
    for (let i = 0; i < p.line && i < lines.length; ++i) offset += lines[i].length + 1;
    return offset + Math.min(p.character, (lines[p.line] ?? '').length);
  }
  positionAt(offset) {
    const before = this.text.slice(0, offset);
    const line = before.split('\n').length - 1;
    return new Position(line, before.length - before.lastIndexOf('\n') - 1);
  }
  lineAt(line) { const text = this.text.split('\n')[typeof line === 'number' ? line : line.line]; return { text, lineNumber: line }; }
  save() { return Promise.resolve(true); }
}

const events = {
  open: new EventEmitter(), close: new EventEmitter(), change: new EventEmitter(), save: new EventEmitter(),
  willSave: new EventEmitter(), configuration: new EventEmitter(), folders: new EventEmitter(),
  activeEditor: new EventEmitter(), tabs: new EventEmitter(),
};
const textDocuments = [];

function openDocument(path, languageId, text) {
  const d = new TextDocument(Uri.file(path), languageId, text);
  textDocuments.push(d);
  events.open.fire(d);
  return d;
}

// Replaces `text` of document `d` (its first occurrence) by `by`, as a keystroke would.
function editDocument(d, text, by) {
  const offset = d.text.indexOf(text);
  const range = new Range(d.positionAt(offset), d.positionAt(offset + text.length));
  d.text = d.text.slice(0, offset) + by + d.text.slice(offset + text.length);
  d.version += 1;
  events.change.fire({ document: d, contentChanges: [{ range, rangeOffset: offset, rangeLength: text.length, text: by }], reason: undefined });
}

function closeDocument(d) {
  textDocuments.splice(textDocuments.indexOf(d), 1);
  d.isClosed = true;
  events.close.fire(d);
}

// ---- what the client registers and sets
const providers = {};   // 'hover' -> [{selector, provider}]
const diagnostics = new Map();  // uri string -> Diagnostic[]
const diagnosticsSet = new EventEmitter();  // fired with the uri string on each set
const messages = [];

function register(kind) {
  return (selector, provider, ...rest) => {
    (providers[kind] ||= []).push({ selector, provider, rest });
    return new Disposable(() => providers[kind].splice(providers[kind].findIndex((p) => p.provider === provider), 1));
  };
}

function match(selector, document) {
  const filters = Array.isArray(selector) ? selector : [selector];
  return filters.some((f) =>
    typeof f === 'string' ? f === document.languageId
      : (!f.language || f.language === document.languageId) && (!f.scheme || f.scheme === document.uri.scheme) &&
        !f.notebookType) ? 10 : 0;
}

function createDiagnosticCollection(name) {
  return {
    name,
    set(uri, list) {
      if (Array.isArray(uri)) { for (const [u, l] of uri) this.set(u, l); return; }
      diagnostics.set(uri.toString(), list || []);
      diagnosticsSet.fire(uri.toString());
    },
    delete(uri) { diagnostics.delete(uri.toString()); diagnosticsSet.fire(uri.toString()); },
    clear() { diagnostics.clear(); },
    get(uri) { return diagnostics.get(uri.toString()); },
    has(uri) { return diagnostics.has(uri.toString()); },
    forEach(f) { diagnostics.forEach((l, u) => f(Uri.parse(u), l, this)); },
    dispose() {},
  };
}

function outputChannel(name) {
  const lines = [];
  messages.push({ channel: name, lines });
  return { name, append: (t) => lines.push(t), appendLine: (t) => lines.push(t), replace() {}, clear() {}, show() {}, hide() {}, dispose() {} };
}

const settings = {};
const languages = { match, createDiagnosticCollection, getLanguages: () => Promise.resolve(['tg']) };
for (const kind of ['Hover', 'Definition', 'Reference', 'DocumentSymbol', 'CompletionItem', 'SignatureHelp', 'Declaration',
  'TypeDefinition', 'Implementation', 'DocumentHighlight', 'CodeActions', 'CodeLens', 'DocumentFormattingEdit',
  'DocumentRangeFormattingEdit', 'OnTypeFormattingEdit', 'Rename', 'DocumentLink', 'Color', 'FoldingRange', 'SelectionRange',
  'CallHierarchy', 'TypeHierarchy', 'InlayHints', 'InlineValues', 'InlineCompletionItem', 'WorkspaceSymbol',
  'DocumentSemanticTokens', 'DocumentRangeSemanticTokens', 'LinkedEditingRange'])
  languages[`register${kind}Provider`] = register(kind);

const vscode = {
  version: '1.82.0',
  env: { appName: 'fake', language: 'en', machineId: 'test', sessionId: 'test', uiKind: 1, openExternal: () => Promise.resolve(true) },
  Disposable, EventEmitter, Uri, Position, Range, Location, Diagnostic, MarkdownString, Hover, CompletionItem, CompletionList,
  SignatureHelp, SignatureInformation, ParameterInformation, DocumentSymbol, SymbolInformation, TextEdit,
  CancellationError, CancellationTokenSource,
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
  SymbolKind: withStandIns('SymbolKind', { Module: 1, Variable: 12, Function: 11 }),
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  CompletionTriggerKind: { Invoke: 0, TriggerCharacter: 1, TriggerForIncompleteCompletions: 2 },
  SignatureHelpTriggerKind: { Invoke: 1, TriggerCharacter: 2, ContentChange: 3 },
  workspace: withStandIns('workspace', {
    textDocuments,
    workspaceFolders: undefined,
    getConfiguration: (section) => ({
      get: (key, fallback) => (`${section}.${key}` in settings ? settings[`${section}.${key}`] : fallback),
      has: (key) => `${section}.${key}` in settings,
      inspect: () => undefined,
      update: () => Promise.resolve(),
    }),
    getWorkspaceFolder: () => undefined,
    onDidOpenTextDocument: events.open.event,
    onDidCloseTextDocument: events.close.event,
    onDidChangeTextDocument: events.change.event,
    onDidSaveTextDocument: events.save.event,
    onWillSaveTextDocument: events.willSave.event,
    onDidChangeConfiguration: events.configuration.event,
    onDidChangeWorkspaceFolders: events.folders.event,
    createFileSystemWatcher: () => ({ onDidCreate: () => new Disposable(), onDidChange: () => new Disposable(), onDidDelete: () => new Disposable(), dispose() {} }),
    applyEdit: () => Promise.resolve(true),
  }),
  window: withStandIns('window', {
    activeTextEditor: undefined,
    visibleTextEditors: [],
    tabGroups: { all: [], onDidChangeTabs: events.tabs.event, onDidChangeTabGroups: events.tabs.event },
    onDidChangeActiveTextEditor: events.activeEditor.event,
    onDidChangeVisibleTextEditors: events.activeEditor.event,
    createOutputChannel: outputChannel,
    showErrorMessage: (m) => (messages.push({ error: m }), Promise.resolve(undefined)),
    showWarningMessage: (m) => (messages.push({ warning: m }), Promise.resolve(undefined)),
    showInformationMessage: (m) => (messages.push({ information: m }), Promise.resolve(undefined)),
    withProgress: (options, task) => task({ report() {} }, new CancellationTokenSource().token),
  }),
  languages: withStandIns('languages', languages),
  commands: withStandIns('commands', {
    registerCommand: () => new Disposable(),
    executeCommand: () => Promise.resolve(undefined),
  }),
  debug: withStandIns('debug', { registerDebugAdapterDescriptorFactory: () => new Disposable() }),
  DebugAdapterExecutable: class { constructor(command, args) { Object.assign(this, { command, args }); } },
};

module.exports = {
  vscode: withStandIns('vscode', vscode),
  openDocument, editDocument, closeDocument, providers, diagnostics, diagnosticsSet, messages, settings, missing,
  CancellationTokenSource,
};
