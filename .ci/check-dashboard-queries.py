#!/usr/bin/env python3
"""Evaluates every query of every Grafana dashboard against a live Prometheus and fails when one
returns no data, so that a renamed metric or a wrong label cannot leave a panel silently empty.

Each panel target's expression is run as a range query (as Grafana does) over the given window,
with the dashboard's variables replaced by concrete values; it passes when some series has at
least one sample that is a number (not NaN). Each query variable's label_values() must list the
strategy under test. Meters only some strategies have are skipped, and said so, for the others:
the Redis client's (lettuce_*) exist only with the redis strategy, the heap caps' (qs_capacity_*)
with every strategy but redis, whose cap is Redis's maxmemory.

    check-dashboard-queries.py --prometheus http://127.0.0.1:9090 --strategy synchronized \
        --start 1700000000 grafana/dashboards/*.json
"""
import argparse
import json
import math
import re
import sys
import time
import urllib.parse
import urllib.request


# Meters a strategy does not have, by whether it is the redis strategy.
ABSENT_FOR = {
    True: {"qs_capacity_": "heap caps, which the redis strategy does not keep (Redis's maxmemory is its cap)"},
    False: {"lettuce_": "the Redis client's meters, redis strategy only"},
}


def panels(items):
    for panel in items or []:
        yield panel
        yield from panels(panel.get("panels"))


def substitute(expr, values):
    for name, value in values.items():
        expr = expr.replace("${" + name + "}", value).replace("$" + name, value)
    left = re.findall(r"\$\{?\w+", expr)
    if left:
        raise ValueError(f"unreplaced variables {left}")
    return expr


def query(prometheus, path, params):
    url = f"{prometheus}{path}?{urllib.parse.urlencode(params)}"
    with urllib.request.urlopen(url, timeout=30) as response:
        body = json.load(response)
    if body.get("status") != "success":
        raise ValueError(f"Prometheus answered {body}")
    return body["data"]


def has_number(result):
    for series in result:
        for _, value in series.get("values", [series.get("value", [0, "NaN"])]):
            if not math.isnan(float(value)):
                return True
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prometheus", required=True)
    parser.add_argument("--strategy", required=True)
    parser.add_argument("--start", type=float, required=True, help="window start, Unix seconds")
    parser.add_argument("--end", type=float, default=None)
    parser.add_argument("--step", default="5s")
    parser.add_argument("--rate-interval", default="20s",
                        help="value of $__rate_interval (Grafana: 4 x the scrape interval)")
    parser.add_argument("dashboards", nargs="+")
    args = parser.parse_args()
    end = args.end or time.time()
    values = {
        "__rate_interval": args.rate_interval,
        "__interval": args.step,
        "__range": f"{int(end - args.start)}s",
        "strategy": args.strategy,  # plain names ([a-z-]); a PromQL string rejects "\-"
    }
    checked = failed = 0
    for path in args.dashboards:
        with open(path, encoding="utf-8") as f:
            dashboard = json.load(f)
        for variable in dashboard.get("templating", {}).get("list", []):
            q = variable.get("query")
            q = q.get("query") if isinstance(q, dict) else q
            match = re.fullmatch(r"\s*label_values\((.+),\s*(\w+)\)\s*", q or "")
            if variable.get("type") != "query" or not match:
                continue
            checked += 1
            data = query(args.prometheus, "/api/v1/query", {"query": f"count by ({match[2]}) ({match[1]})", "time": end})
            found = [series["metric"].get(match[2]) for series in data["result"]]
            ok = args.strategy in found
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} variable ${variable['name']}: {q} -> {found}")
        for panel in panels(dashboard.get("panels")):
            for target in panel.get("targets", []):
                if "expr" not in target:
                    continue
                title = f"{panel.get('title')} [{target.get('refId')}]"
                absent = [why for meter, why in ABSENT_FOR.get(args.strategy == "redis", {}).items()
                          if meter in target["expr"]]
                if absent:
                    print(f"skip {path}: {title}: {absent[0]}")
                    continue
                checked += 1
                try:
                    expr = substitute(target["expr"], values)
                    data = query(args.prometheus, "/api/v1/query_range",
                                 {"query": expr, "start": args.start, "end": end, "step": args.step})
                    ok = has_number(data["result"])
                    detail = f"{len(data['result'])} series" if ok else "NO DATA"
                except Exception as ex:  # a malformed expression is a failure too
                    ok, detail, expr = False, f"ERROR {ex}", target["expr"]
                failed += not ok
                print(f"{'ok  ' if ok else 'FAIL'} {path}: {title}: {detail}")
                if not ok:
                    print(f"       {expr}")
    print(f"{checked} dashboard queries checked, {failed} without data")
    return 1 if failed or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
