#!/usr/bin/env python3
"""A bot for any Arbiter ruleset over stdio (the agent protocol, docs/agents.md): one JSON message per
line on stdin, one reply per line on stdout. At each decision it hands in one legal action picked at
random (nothing when there is none). Where a turn is several actions (points), the engine asks again
while the player is due; where a submission is a list (batch turns, simultaneous orders), one action is
the whole list.

    arbiter match --ruleset asg --p1 "exec:python3 examples/bots/random_bot.py" --p2 random

Standard library only. `--seed N` fixes its choices (default: the player's name and the turn).
"""
import json
import random
import sys


def main():
    seed = None
    if "--seed" in sys.argv:
        seed = int(sys.argv[sys.argv.index("--seed") + 1])
    rng = random.Random(seed)
    me = None
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "start":
            me = msg["player"]
            if seed is None:
                rng.seed(me)
            print(json.dumps({"type": "ready"}), flush=True)
        elif kind == "act":
            legal = msg["legal"]
            actions = [rng.choice(legal)] if legal else []
            reply = {"actions": actions, "rationale": "a random legal action"}
            print(json.dumps(reply), flush=True)
        elif kind == "end":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
