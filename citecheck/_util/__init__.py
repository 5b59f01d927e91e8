"""Internals shared by every layer: atomic writes (`atomic`), bounded loading of YAML and JSON
(`safeload`), the event-loop runner (`aio`), IP-literal classification (`netaddr`)
and the run's `--allow` allowances as data (`allowlist`: the fetch guard and the private-address rules
read the same reading; the rules may not import `citecheck.config`)."""
