#!/usr/bin/python3
"""Start a full-screen program in a pseudo-terminal and time its first complete frame.

One method for every program (bench/tui_start.sh: byoc, htop, tig): the program runs in an
80x24 pty (TERM=xterm-256color); everything it writes is fed to a terminal emulator (pyte,
Debian's python3-pyte) and timestamped as it is read. Two times, from just before exec:

first_frame_ms  the end of the first burst: the last write of the first burst that leaves text on
                the screen's bottom rows (where all three keep a status or key bar; tig leaves its
                last row to the prompt, so the last two rows count), a burst ending when the
                program writes nothing for QUIET ms. Values that arrive within QUIET ms of the
                frame (a status filled in by a background check) extend it.
layout_ms       the first write after which every row that holds text at first_frame_ms holds
                text: the whole first screen's layout is there, some values maybe still to come.

Then, after IDLE s without keys, the program's VmHWM and VmRSS.

usage: bench/pty_frames.py [--cols 80] [--rows 24] [--quiet-ms 50] [--idle 1] -- CMD...
prints: {"first_frame_ms": F, "layout_ms": L, "bytes": B, "hwm_kib": H, "rss_kib": R}
"""
import argparse
import fcntl
import json
import os
import select
import signal
import struct
import sys
import termios
import time

import pyte

ap = argparse.ArgumentParser()
ap.add_argument("--cols", type=int, default=80)
ap.add_argument("--rows", type=int, default=24)
ap.add_argument("--quiet-ms", type=float, default=50)
ap.add_argument("--idle", type=float, default=1.0)
ap.add_argument("--deadline", type=float, default=20)
ap.add_argument("--keys", default="", help="after the idle, keys sent one at a time (Python escapes: "
                "'\\x1b[6~' PgDn); per key: bytes written, screen cells changed and the bytes that change "
                "needs at least")
ap.add_argument("--prelude", default="", help="keys sent (one at a time) before the measured ones")
ap.add_argument("--screen", action="store_true", help="add the screen after the keys to the output")
ap.add_argument("--settle", type=float, default=0, help="after the prelude, wait up to this many seconds "
                "until the program has written nothing for 2 s (a log still streaming in)")
ap.add_argument("cmd", nargs="+")
a = ap.parse_args()

screen = pyte.Screen(a.cols, a.rows)
stream = pyte.ByteStream(screen)

master, slave = os.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", a.rows, a.cols, 0, 0))
env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(a.cols), LINES=str(a.rows))
# posix_spawn (vfork underneath) rather than os.fork: forking this Python process, pyte loaded,
# costs 8-10 ms of page-table copying that would be counted against every program measured. The
# child starts a session and opens the pty's slave as its first terminal, which makes it the
# controlling one; the descriptors Python opened are close-on-exec.
slave_name = os.ttyname(slave)
t0 = time.monotonic()
pid = os.posix_spawnp(a.cmd[0], a.cmd, env, setsid=True, file_actions=[
    (os.POSIX_SPAWN_OPEN, 0, slave_name, os.O_RDWR, 0),
    (os.POSIX_SPAWN_DUP2, 0, 1),
    (os.POSIX_SPAWN_DUP2, 0, 2)])
os.close(slave)


def read_for(seconds, limit=5.0):
    """Read (and feed) until `seconds` pass with nothing written, or `limit` seconds in all (a
    program that never stops drawing); returns the time of the last read."""
    last = None
    end = time.monotonic() + limit
    while time.monotonic() < end:
        r, _, _ = select.select([master], [], [], seconds)
        if not r:
            return last
        try:
            data = os.read(master, 65536)
        except OSError:
            return last
        if not data:
            return last
        last = time.monotonic()
        stream.feed(data)
        read_for.bytes += len(data)
        if read_for.rows is not None:
            read_for.rows.append((last, frozenset(y for y, line in enumerate(screen.display) if line.strip())))
    return last


read_for.bytes = 0
read_for.rows = []  # (time, rows holding text) after each read, until the first frame
frame = None
deadline = t0 + a.deadline
while time.monotonic() < deadline:
    last = read_for(a.quiet_ms / 1000)
    if last is not None and (screen.display[-1].strip() or screen.display[-2].strip()):
        frame = last
        break
    if last is None:
        select.select([master], [], [], 0.05)
layout = None
if frame is not None:
    final = read_for.rows[-1][1]
    layout = next(t for t, rows in read_for.rows if rows >= final)
read_for.rows = None
if frame is not None:
    read_for(a.idle, a.idle)  # idle: whatever it draws meanwhile is read, no keys are sent


def cells():
    return {(y, x): (c.data, c.fg, c.bg, c.bold, c.reverse, c.underscore)
            for y, row in screen.buffer.items() for x, c in row.items()}


COLOURS = {"black": 0, "red": 1, "green": 2, "brown": 3, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6,
           "white": 7}


def sgr_params(style):
    """The SGR parameters that set `style` (fg, bg, bold, reverse, underscore) from the default."""
    fg, bg, bold, reverse, underscore = style
    params = (["1"] if bold else []) + (["4"] if underscore else []) + (["7"] if reverse else [])
    for base, colour in ((30, fg), (40, bg)):
        if colour == "default":
            continue
        if colour in COLOURS:
            params.append(str(base + COLOURS[colour]))
        else:  # a 256-colour or RGB cell: ESC [ 38;5;N m at the least
            params.append("%d;5;255" % (base + 8))
    return params


def changed(before, after):
    """(cells changed, runs of them on a row, bytes needed): a terminal needs at least, for each
    run of changed cells on a row, a cursor move (ESC [ row ; col H, ~6 bytes), the UTF-8 bytes
    of its characters, an SGR sequence (ESC [ params m) wherever the style changes along the run
    (from the default at its start), and a reset (ESC [ m) after a styled run. A lower bound: a
    terminal library can do no better than writing each changed cell once."""
    blank = (" ", "default", "default", False, False, False)
    diff = sorted(k for k in set(before) | set(after) if before.get(k, blank) != after.get(k, blank))
    runs, need, style, default = 0, 0, None, ("default", "default", False, False, False)
    for i, (y, x) in enumerate(diff):
        if i == 0 or diff[i - 1] != (y, x - 1):
            if style not in (None, default):
                need += 3
            runs, need, style = runs + 1, need + 6, default
        data, fg, bg, bold, reverse, underscore = after.get((y, x), blank)
        cell_style = (fg, bg, bold, reverse, underscore)
        if cell_style != style:
            params = (["0"] if style != default and cell_style != default else []) + sgr_params(cell_style)
            need += 3 + len(";".join(params))
            style = cell_style
        need += len(data.encode())
    if style not in (None, default):
        need += 3
    return len(diff), runs, need


def send_keys(text, measure):
    out = []
    for key in split_keys(text.encode().decode("unicode_escape")):
        before, n0 = cells(), read_for.bytes
        os.write(master, key.encode())
        read_for(0.15, 2.0)
        if measure:
            n, runs, need = changed(before, cells())
            out.append({"key": key, "bytes": read_for.bytes - n0, "cells": n, "runs": runs, "need": need})
    return out


def split_keys(text):
    keys, i = [], 0
    while i < len(text):
        if text[i] == "\x1b" and i + 1 < len(text) and text[i + 1] == "[":
            j = i + 2
            while j < len(text) and not (text[j].isalpha() or text[j] == "~"):
                j += 1
            keys.append(text[i:j + 1])
            i = j + 1
        else:
            keys.append(text[i])
            i += 1
    return keys


def status(key):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        return None


out = {"first_frame_ms": round((frame - t0) * 1000, 2) if frame else None,
       "layout_ms": round((layout - t0) * 1000, 2) if layout else None, "bytes": read_for.bytes,
       "hwm_kib": status("VmHWM"), "rss_kib": status("VmRSS")}
if frame is not None and a.prelude:
    send_keys(a.prelude, False)
    read_for(a.idle, a.idle)
    if a.settle:
        read_for(2.0, a.settle)
if frame is not None and a.keys:
    out["keys"] = send_keys(a.keys, True)
os.kill(pid, signal.SIGTERM)
for _ in range(100):
    if os.waitpid(pid, os.WNOHANG)[0]:
        break
    try:
        os.read(master, 65536)
    except OSError:
        pass
    time.sleep(0.02)
else:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
if frame is None or a.screen:
    out["screen"] = screen.display
print(json.dumps(out))
sys.exit(0 if frame else 1)
