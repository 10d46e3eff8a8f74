"""The `rattus` subcommands, one module each; `rattus_rules.cli` lists them."""
