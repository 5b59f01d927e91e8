"""The page stage: parses fetched bodies and runs the page rules on them, in a standard process pool
above a threshold of pages to parse, else in-process (`citecheck.stage.pages`; the pool's worker side
is `citecheck.stage._worker`). Used by `audit` and `harvest`."""
