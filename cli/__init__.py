"""The ``cardwise`` command line (``cli.main``): serve, migrate, keys, importers, evals, the model server."""
