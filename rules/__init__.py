"""Built-in YAML rule packs (the top-level rules/ folder, installed as citecheck.packs)."""
