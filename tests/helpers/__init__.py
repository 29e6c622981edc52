"""Helpers the tests share (no tests here): readable card names, scripted deals, running the
command line, determinism probes, tiny training budgets, a live web server."""
