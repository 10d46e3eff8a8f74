"""`rattus play --web`: play any game of the registry in the browser against random players (see
:mod:`rattus_rules.tools.views.play`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import EXIT_OK, UsageError, parse_interpretations


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add --web and --port to `rattus play`."""
    play = sub.choices.get("play")
    if play is None:
        return
    play.add_argument("--web", action="store_true",
                      help="play yourself in the browser against random players: serves a page on 127.0.0.1 "
                           "(--players, --seed and --interpretation preset its start form)")
    play.add_argument("--port", type=int, default=8000, help="with --web: the port (default 8000; 0: any free one)")
    text_play = play.get_default("run")

    def run(args: argparse.Namespace) -> int:
        return run_web(args) if args.web else int(text_play(args))

    play.set_defaults(run=run)


def run_web(args: argparse.Namespace) -> int:
    """Serve the play page until Ctrl-C."""
    from ..tools.views.play import PlayServer, make_play_server

    if getattr(args, "record", None):
        raise UsageError("--record is for games of random players; on the play page, download the record")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port is 0..65535, not {args.port}")
    try:
        server = PlayServer(args.data, args.seed, parse_interpretations(args.interpretation), args.players)
    except ValueError as err:
        raise UsageError(str(err)) from None
    try:
        httpd: Any = make_play_server(server, args.port)
    except OSError as err:
        raise UsageError(f"cannot serve on 127.0.0.1:{args.port}: {err.strerror or err}") from None
    print(f"{server.game.title} play page: http://127.0.0.1:{httpd.server_port}/  (Ctrl-C stops)", flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        httpd.server_close()
    return EXIT_OK
