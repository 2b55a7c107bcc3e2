-- Neovim's own LSP client runs `snnplan lsp` on a rule file and writes back the diagnostics it
-- got, one "line:col:severity:code:message" per line (0-based, as vim.diagnostic has them).
-- Run by lsp_neovim_test.py: nvim --headless --clean -c "luafile lsp_neovim_test.lua".
local snnplan = os.getenv("SNNPLAN")
local file = os.getenv("RULE_FILE")
local result = os.getenv("RESULT_FILE")

-- Whatever fails below, Neovim quits (a headless Neovim left at an error would wait forever).
local function run()
vim.cmd("edit " .. vim.fn.fnameescape(file))
local buffer = vim.api.nvim_get_current_buf()
local config = {
  name = "snnplan",
  cmd = { snnplan, "lsp" },
  root_dir = vim.fn.fnamemodify(file, ":h"),
}
local client
if vim.lsp.start then -- Neovim 0.8 and later
  client = vim.lsp.start(config)
else -- Debian bookworm's 0.7: the same client, started and attached in two steps
  client = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(buffer, client)
end

local lines = {}
local got = vim.wait(20000, function() return #vim.diagnostic.get(buffer) > 0 end, 50)
if not got then
  table.insert(lines, "timeout: no diagnostics within 20 s")
end
local diagnostics = vim.diagnostic.get(buffer)
table.sort(diagnostics, function(a, b) return a.lnum < b.lnum end)
for _, d in ipairs(diagnostics) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or ""
  table.insert(lines, string.format("%d:%d:%d:%s:%s", d.lnum, d.col, d.severity, code, d.message))
end

-- Hover through the same client: the text the server gives for the input on line 4.
local params = { textDocument = { uri = vim.uri_from_bufnr(buffer) }, position = { line = 3, character = 3 } }
local answers = vim.lsp.buf_request_sync(buffer, "textDocument/hover", params, 10000) or {}
for _, answer in pairs(answers) do
  if answer.result and answer.result.contents then
    table.insert(lines, "hover:" .. answer.result.contents.value:gsub("\n", "|"))
  end
end

vim.fn.writefile(lines, result)
vim.lsp.stop_client(client)
vim.wait(2000, function() return vim.lsp.get_client_by_id(client) == nil end, 50)
end

local ok, problem = pcall(run)
if not ok then
  vim.fn.writefile({ "error: " .. tostring(problem) }, result)
end
vim.cmd("qa!")
