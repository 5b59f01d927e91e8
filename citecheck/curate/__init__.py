"""Pipelines over runs and corpora: `master` (curate URLs across many runs into one judged list),
`sqlite` (that list as a SQLite database: `curate --sqlite`) and `resolve` (find validated sources
for `<needs-source/>` markers)."""
