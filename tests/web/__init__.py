"""The browser table: protocol, sessions, replays, load, the page in Chromium."""
