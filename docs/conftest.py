"""pytest in docs/: run the pages' Python examples (``*.rst`` doctests), not Sphinx's own files."""

collect_ignore = ["conf.py", "_ext", "_build", "examples"]
