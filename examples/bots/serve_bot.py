#!/usr/bin/env python3
"""A bot that plays a seat of a match on `arbiter serve` (docs/agents.md, the server API), picking a
random legal action at each decision. Standard library only (urllib).

Join a match someone created (its id and the seat's token come from `POST /matches`):

    python3 examples/bots/serve_bot.py --server http://127.0.0.1:8080 --match ID --player P1 --token TOKEN

or create one against an agent that plays on the server, then play it:

    python3 examples/bots/serve_bot.py --server http://127.0.0.1:8080 --ruleset asg --opponent greedy

It waits for its turn by long-polling the match's events, and prints the result when the game is over
(and, with --replay FILE, writes the replay there).
"""
import argparse
import json
import random
import sys
import urllib.error
import urllib.request


class Server:
    def __init__(self, base, token=None):
        self.base = base.rstrip("/")
        self.token = token

    def call(self, method, path, body=None):
        """(status, JSON body) of one request; HTTP errors are answers too (their body says why)."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")


def play(server, match, player, rng, max_requests=100000):
    """Plays `player`'s seat until the game is over; returns the match's final status."""
    since = 0
    for _ in range(max_requests):
        _, status = server.call("GET", f"/matches/{match}")
        if status["status"] != "ongoing":
            return status
        if player in status["active"]:
            code, legal = server.call("GET", f"/matches/{match}/legal")
            if code != 200:
                continue  # the turn moved on meanwhile: look again
            actions = [rng.choice(legal["actions"])] if legal["actions"] else []
            code, answer = server.call("POST", f"/matches/{match}/submissions", {"actions": actions})
            if code not in (200, 409):
                raise SystemExit(f"submission refused: {code} {answer}")
        else:
            _, news = server.call("GET", f"/matches/{match}/events?since={since}&wait_ms=5000")
            since = news["next"]
    raise SystemExit("the game did not end")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--server", required=True)
    p.add_argument("--match")
    p.add_argument("--token")
    p.add_argument("--player", help="the seat the token is for")
    p.add_argument("--ruleset", help="create a match of this ruleset instead of joining one")
    p.add_argument("--opponent", default="random", help="the agent seated against the bot")
    p.add_argument("--set", action="append", default=[], metavar="K=V")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--replay", help="write the replay here at the end")
    args = p.parse_args()
    rng = random.Random(args.seed)
    server = Server(args.server)
    match, token, player = args.match, args.token, args.player
    if args.ruleset:
        _, rulesets = server.call("GET", "/rulesets")
        players = next(r["players"] for r in rulesets if r["id"] == args.ruleset)
        player = players[0]
        seats = {q: ("remote" if q == player else args.opponent) for q in players}
        body = {"ruleset": args.ruleset, "seats": seats,
                "set": {k: json.loads(v) for k, v in (kv.split("=", 1) for kv in args.set)}}
        code, made = server.call("POST", "/matches", body)
        if code != 201:
            raise SystemExit(f"cannot create the match: {code} {made}")
        match, token = made["id"], made["tokens"][player]
    if not (match and token and player):
        raise SystemExit("give --match, --player and --token, or --ruleset")
    server.token = token
    status = play(server, match, player, rng)
    print(json.dumps({"match": match, "player": player, "result": status["result"]}), flush=True)
    if args.replay:
        _, replay = server.call("GET", f"/matches/{match}/replay")
        with open(args.replay, "w") as f:
            json.dump(replay, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
