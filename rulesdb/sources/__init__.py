"""Documents in and out: the catalogue, `build` (every catalogued source), `add` and `release`
(Comprehensive Rules files), `fetch` (a release from Wizards of the Coast), `remove`.

The stage that drives the others: it parses (`rulesdb.ingest`), stores (`rulesdb.db`), runs
the layers and retraces engines. Only the command line and the site's `serve` import it.
"""
