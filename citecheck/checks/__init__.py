"""Built-in rules: one module per slug; registered through the `citecheck.rules` entry point."""
