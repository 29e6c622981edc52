"""The project as a whole: style, layers, docs and notebooks that run."""
