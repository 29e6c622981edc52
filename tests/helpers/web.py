"""A scripted player of the web table's protocol, over Starlette's test client."""

from __future__ import annotations

import json
import re

WS = "ws://127.0.0.1/ws"  # the app admits loopback host names only
CARD_NAME = re.compile(r"\b(?:green|red|blue|gold) \d+\b")


class Client:
    """One WebSocket connection that reads a request's replies up to the last one."""

    def __init__(self, websocket: object) -> None:
        self.ws = websocket
        self.hello = self.ws.receive_json()
        self.game: str | None = None
        self.received: list[dict] = []  # every message of the connection, as parsed

    def request(self, message: dict | str) -> list[dict]:
        """Send a message; return the replies (a request ends at the person's turn, the end
        of a round, or a single error, coach, losses or frame reply)."""
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))
        replies = []
        while True:
            text = self.ws.receive_text()
            reply = json.loads(text)
            reply["_raw"] = text
            replies.append(reply)
            self.received.append(reply)
            if reply["type"] == "joined":
                self.game = reply["game"]
            if reply["type"] in ("error", "coach", "losses", "frame") or (
                reply["type"] == "state" and (reply["legal"] or reply["summary"])
            ):
                return replies
