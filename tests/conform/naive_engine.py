"""A small 6 nimmt! engine written apart from take6 (it imports nothing of ours), speaking the
conformance protocol. Without options it follows the rules (Profi and perft it declares
unsupported); each option plants one of the errors found in public engines, or a way of failing:

    --heads55 N       55 is worth N heads
    --digit-five      every card containing the digit 5 carries 2 heads (the literal reading)
    --too-low-auto    a too-low card takes the row with the fewest heads, whatever the owner chose
    --seat-order      the cards of a turn are placed in seat order
    --no-sixth        a full row is not taken: the card is added to it
    --crash-at ID     exit with status 3 when asked the case ID
    --hang-at ID      never answer the case ID
    --garbage-at ID   answer the case ID with a line that is not JSON
    --wrong-id-at ID  answer the case ID with another id
"""

import argparse
import json
import sys
import time
from typing import Any


def heads(card: int, opts: argparse.Namespace) -> int:
    if opts.digit_five and "5" in str(card):
        return 2 if card != 55 else 7
    if card == 55:
        return int(opts.heads55)
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


def turn(req: dict[str, Any], opts: argparse.Namespace) -> dict[str, Any]:
    rules = req["rules"]
    if rules["profi_left"]:
        return {"unsupported": "Profi is not implemented"}
    rows = [list(r) for r in req["rows"]]
    players = rules["players"]
    taken: list[list[int]] = [[] for _ in range(players)]
    choice = {c["player"]: c["row"] for c in req.get("choices", [])}
    plays = [(p["card"], p["player"]) for p in req["plays"]]
    if rules["simultaneous"] and not opts.seat_order:
        plays.sort()
    else:
        plays.sort(key=lambda cp: cp[1])
    for card, player in plays:
        below = [i for i, r in enumerate(rows) if r[-1] < card]
        if not below:
            if opts.too_low_auto:
                row = min(range(len(rows)), key=lambda i: (sum(heads(c, opts) for c in rows[i]), i))
            else:
                row = choice.get(player, 0)
            taken[player] += rows[row]
            rows[row] = [card]
            continue
        row = max(below, key=lambda i: rows[i][-1])
        if len(rows[row]) >= rules["row_capacity"] and not opts.no_sixth:
            taken[player] += rows[row]
            rows[row] = [card]
        else:
            rows[row].append(card)
    return {"rows": rows, "taken": taken, "heads": [sum(heads(c, opts) for c in t) for t in taken]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--heads55", type=int, default=7)
    ap.add_argument("--digit-five", action="store_true")
    ap.add_argument("--too-low-auto", action="store_true")
    ap.add_argument("--seat-order", action="store_true")
    ap.add_argument("--no-sixth", action="store_true")
    ap.add_argument("--crash-at")
    ap.add_argument("--hang-at")
    ap.add_argument("--garbage-at")
    ap.add_argument("--wrong-id-at")
    opts = ap.parse_args()
    for line in sys.stdin:
        req = json.loads(line)
        rid = req["id"]
        if rid == opts.crash_at:
            print("engine: cannot cope", file=sys.stderr)
            sys.exit(3)
        if rid == opts.hang_at:
            time.sleep(3600)
        if rid == opts.garbage_at:
            print("Traceback (most recent call last): oops", flush=True)
            continue
        if req["kind"] == "heads":
            out: dict[str, Any] = {"heads": heads(req["card"], opts)}
        elif req["kind"] == "turn":
            out = turn(req, opts)
        else:
            out = {"unsupported": "perft is not implemented"}
        out["id"] = "other" if rid == opts.wrong_id_at else rid
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
