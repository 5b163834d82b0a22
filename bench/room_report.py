"""The report of bench/rooms.py: latencies per kind of request, errors by kind, the client's own CPU and the
machine's load, as lines to print and as the JSON a run writes (`--json`)."""

from __future__ import annotations

import time

from bench.load import percentile
from bench.room_client import AHEAD, BOARD, CATEGORIES, POLLS, RANKING, RESULTS, RESULTS_POLL, STAGE, WORD, Run


def summary(values: list[float]) -> dict:
    ms = [1000 * value for value in values]
    if not ms:
        return {"count": 0}
    return {
        "count": len(ms),
        "p50": percentile(ms, 0.5),
        "p95": percentile(ms, 0.95),
        "p99": percentile(ms, 0.99),
        "max": max(ms),
    }


def limits_storage(args) -> str:
    """Where the servers counted the per-client limits: one Redis for all, or each worker's memory."""
    return "one Redis" if args.redis else "each worker's memory"


def report(run: Run, problems: list[str], joined: int, cpu: tuple, wall: float, load: tuple) -> tuple[list[str], dict]:
    figures, args = run.figures, run.args
    cpu, waited = cpu
    if run.started_at is not None:
        figures.board_after_start = [at - run.started_at for at in figures.board_after_start]
    else:
        figures.board_after_start = []
    requests = figures.requests()
    stats = {
        category: {**summary(figures.latencies[category]), "304": figures.not_modified[category]}
        for category in CATEGORIES
    }
    every_poll = summary([value for category in POLLS for value in figures.latencies[category]])
    host_polls = summary(figures.latencies[STAGE] + figures.latencies[RANKING])
    lines = [
        f"{args.players} phones ({joined} joined) from {args.addresses} addresses, {args.servers} server(s), "
        f"store {args.store}, limits counted in {limits_storage(args)}, room {run.code}: "
        f"lobby {args.lobby:g} s (joins over {args.join_window:g} s), "
        f"play {args.seconds:g} s, results polled {args.after:g} s after the end",
        f"{'':20}{'requests':>9}{'304':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}",
    ]
    for category in CATEGORIES:
        row = stats[category]
        if row["count"]:
            lines.append(
                f"{category:20}{row['count']:9d}{row['304']:7d}{row['p50']:9.1f}{row['p95']:9.1f}"
                f"{row['p99']:9.1f}{row['max']:9.1f}"
            )
    lines.append(
        f"{'every poll':20}{every_poll.get('count', 0):9d}"
        f"{sum(figures.not_modified[c] for c in POLLS):7d}"
        + "".join(f"{every_poll.get(k, 0):9.1f}" for k in ("p50", "p95", "p99", "max"))
    )
    for label, values in (
        ("board in hand after the start", figures.board_after_start),
        ("results in hand after the end", figures.results_after_end),
    ):
        if values:
            lines.append(
                f"{label}: p50 {percentile(values, 0.5):.2f} s, p95 {percentile(values, 0.95):.2f} s, "
                f"max {max(values):.2f} s ({len(values)} of the {joined} phones in the room)"
            )
    lines.append(f"errors: {sum(figures.errors.values())}")
    for kind, count in figures.errors.most_common():
        lines.append(f"  {count:6d}  {kind}   e.g. {figures.examples[kind][0][:150]}")
    lines.append(
        f"ranking exact: {'yes' if not problems else 'NO'} ({joined} players, "
        f"{sum(run.expected.values())} points accepted; {len(run.unknown)} players sent words whose answer "
        f"never came, worth {sum(run.unknown.values())} points: a total above the accepted words by at most "
        f"those is counted as an error of that kind, not as an inexact ranking)"
    )
    lines += [f"  {problem}" for problem in problems[:10]]
    lag = summary(figures.lag)
    lines.append(
        f"the bench itself: {cpu:.1f} s of CPU for {requests} requests in {wall:.0f} s "
        f"({1000 * cpu / max(1, requests):.2f} s per 1,000 requests, {cpu / wall:.0%} of a core); "
        f"its event loop late by p99 {lag.get('p99', 0):.0f} ms, max {lag.get('max', 0):.0f} ms; it waited "
        f"{waited:.1f} s for a CPU (ready to run, other processes running)"
    )
    lines.append(f"load average (1 min): {load[0]:.2f} at the start, {load[1]:.2f} at the end (2 cores)")
    row = stats
    boards = summary(figures.latencies[AHEAD] + figures.latencies[BOARD])  # the request that brought each board
    table = (
        f"| {args.players:,} | {row[WORD].get('p99', 0):.0f} ms | {boards.get('p95', 0):.0f} ms | "
        f"{row[RESULTS].get('p50', 0):.0f} / {row[RESULTS].get('p95', 0):.0f} ms | "
        f"{row[RESULTS_POLL].get('p99', 0):.0f} ms | {host_polls.get('p95', 0):.0f} ms |"
    )
    lines += [
        "",
        "| phones | words p99 | board at start p95 | results at end p50 / p95 | results polls p99 | host ranking p95 |",
        "|---|---|---|---|---|---|",
        table,
        f"every poll p99: {every_poll.get('p99', 0):.0f} ms (host ranking: the host's stage and ranking polls)",
    ]
    data = {
        "players": args.players,
        "joined": joined,
        "addresses": args.addresses,
        "servers": args.servers,
        "store": args.store,
        "limits_storage": limits_storage(args),
        "lobby": args.lobby,
        "seconds": args.seconds,
        "after": args.after,
        "categories": stats,
        "every_poll": every_poll,
        "host_polls": host_polls,
        "board_after_start_s": figures.board_after_start and summary(figures.board_after_start),
        "results_after_end_s": figures.results_after_end and summary(figures.results_after_end),
        "errors": dict(figures.errors),
        "error_examples": dict(figures.examples),
        "ranking_exact": not problems,
        "ranking_problems": problems[:50],
        "bench_cpu_s": cpu,
        "requests": requests,
        "bench_cpu_s_per_1000": 1000 * cpu / max(1, requests),
        "loop_lag_ms": lag,
        "bench_waited_for_cpu_s": waited,
        "load_average_start": load[0],
        "load_average_end": load[1],
        "table_row": table,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    return lines, data
