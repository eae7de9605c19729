"""The ``mushka`` command line (Typer); one module per subcommand."""
