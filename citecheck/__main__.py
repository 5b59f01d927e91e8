from citecheck.cli import run

run()
