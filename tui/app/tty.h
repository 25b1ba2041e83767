/* tty: owning the terminal for the TUI, and always giving it back.
 *
 * tui_tty_check() refuses terminals that cannot address the cursor
 * (TERM=dumb, unknown TERM). tui_tty_start() opens the terminal (stdin and
 * stdout, or /dev/tty when they are not terminals), puts it in raw mode
 * through curses, and installs:
 *   - SIGWINCH, SIGTERM, SIGINT, SIGHUP handlers that only write the signal
 *     number to a self-pipe (tui_tty_signal_fd) for the main poll() loop;
 *   - crash handlers (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) that restore
 *     the terminal with async-signal-safe calls (tcsetattr and a write of the
 *     precomputed reset sequences), print "byoc: crashed (SIGSEGV); ..." (the
 *     signal's name only), then re-raise with the previous action. The test-only
 *     BYOC_TEST_CRASH=segv|abort makes SIGUSR1 cause a real crash on the UI
 *     thread (tests/e2e/test_terminal_crash.sh);
 *   - an atexit hook restoring the terminal if tui_tty_stop was skipped.
 * stderr is parked in a memory file while curses runs and replayed after.
 * ESCDELAY: the environment's value if set, else 25 ms. */
#ifndef BYOC_TUI_TTY_H
#define BYOC_TUI_TTY_H

#include <stdbool.h>
#include <stddef.h>

#include "style.h"

/* 0 if the terminal can run the TUI; else 3 with the reason in msg
 * ("this terminal (TERM=dumb) cannot run the TUI; ..."). */
int tui_tty_check(char *msg, size_t size);
/* Take over the terminal; colour as wanted (NO_COLOR is checked by the
 * caller). 0, or -1 with msg. */
int tui_tty_start(bool colour, char *msg, size_t size);
/* Give the terminal back (idempotent). */
void tui_tty_stop(void);
int tui_tty_input_fd(void);
/* Readable when a signal arrived; tui_tty_signals() drains it. */
int tui_tty_signal_fd(void);
typedef struct tui_signals {
    bool resize;
    int terminate;       /* SIGTERM, SIGINT or SIGHUP when one arrived, else 0 */
} tui_signals;
tui_signals tui_tty_signals(void);
/* Read the window size and tell curses. */
void tui_tty_resize(void);
/* Stop the process (C-z) and take the terminal back when continued. */
void tui_tty_suspend(void);

#endif
