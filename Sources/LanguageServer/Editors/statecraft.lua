-- Neovim (0.10 or later): .machine files are the language `statecraft`, and `statecraft lsp`
-- serves them. Put this in init.lua, with the path of your statecraft binary.
vim.filetype.add({ extension = { machine = "statecraft" } })
vim.api.nvim_create_autocmd("FileType", {
  pattern = "statecraft",
  callback = function(args)
    vim.lsp.start({
      name = "statecraft",
      cmd = { "/path/to/statecraft", "lsp" },
      root_dir = vim.fs.root(args.buf, { ".git", "Package.swift" }) or vim.fn.getcwd(),
    })
  end,
})
