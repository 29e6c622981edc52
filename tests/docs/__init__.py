"""The docs are tested: their blocks run, their outputs, links and named paths are checked."""
