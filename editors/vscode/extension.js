// Starts `snnplan lsp` for the YAML files of the workspace; the server itself answers only for
// files whose first key is `snnplan:` (others get no diagnostics).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("snnplan");
  const args = ["lsp"];
  for (const root of settings.get("rulesRoots", [])) args.push("--rules-root", root);
  const server = { command: settings.get("path", "snnplan"), args };
  client = new LanguageClient("snnplan", "snnplan rule files", server, {
    documentSelector: [{ scheme: "file", language: "yaml" }],
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
