#!/usr/bin/env python3
"""A bot for any Arbiter ruleset behind HTTP (the agent protocol, docs/agents.md): the engine POSTs each
message to it and reads the reply from the response body. It picks a random legal action at each decision.

    python3 examples/bots/http_bot.py --port 8765 &
    arbiter match --ruleset asg --p1 http://127.0.0.1:8765/ --p2 random

Standard library only. It listens on 127.0.0.1 only and prints `listening on URL` once it does (with
`--port 0`, the default, the system picks a free port).
"""
import argparse
import json
import random
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY = 16 << 20


class Handler(BaseHTTPRequestHandler):
    rng = random.Random()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            self.send_error(413)
            return
        msg = json.loads(self.rfile.read(length))
        reply = {}
        if msg.get("type") == "act":
            legal = msg["legal"]
            reply = {"actions": [self.rng.choice(legal)] if legal else []}
        body = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    Handler.rng.seed(args.seed)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
