#include "tty.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

#include "draw.h"

static struct {
    bool active;
    bool atexit_set;
    int in_fd, out_fd;
    FILE *in, *out;          /* what curses uses; opened by us when /dev/tty */
    bool own_files;
    SCREEN *screen;
    struct termios saved;
    bool have_saved;
    int pipe[2];
    int saved_stderr;        /* the real stderr while it is parked, else -1 */
    int parked;              /* the memory file holding stderr meanwhile */
    char reset[256];         /* sequences that undo what curses did to the screen */
    size_t reset_len;
    tui_glyph_mode glyphs;
    int test_crash;          /* TEST_CRASH_*: BYOC_TEST_CRASH, read when curses starts */
    struct sigaction old[65];
} T = {.pipe = {-1, -1}, .saved_stderr = -1, .parked = -1};

static const int forwarded[] = {SIGWINCH, SIGTERM, SIGINT, SIGHUP};
static const int crashes[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

/* Test-only: BYOC_TEST_CRASH=segv|abort arms a real crash of the UI thread, set off
 * by SIGUSR1 once curses runs (the terminal e2e tests prove with it that a crash gives
 * the terminal back). Without the variable SIGUSR1 keeps its default action. */
enum { TEST_CRASH_NONE, TEST_CRASH_SEGV, TEST_CRASH_ABORT };
#define TEST_CRASH_SIGNAL SIGUSR1

static bool usable_cap(const char *s)
{
    return s && s != (const char *)-1 && *s;
}

int tui_tty_check(char *msg, size_t size)
{
    const char *term = getenv("TERM");
    if (!term || !*term || strcmp(term, "dumb") == 0) {
        snprintf(msg, size, "this terminal (TERM=%s) cannot run the TUI; use the commands instead (byoc --help)",
                 term && *term ? term : "");
        return 3;
    }
    int err = 0;
    int fd = isatty(STDOUT_FILENO) ? STDOUT_FILENO : STDIN_FILENO;
    if (setupterm(term, fd, &err) != OK) {
        snprintf(msg, size, "unknown terminal type (TERM=%s); use the commands instead (byoc --help)", term);
        return 3;
    }
    bool ok = usable_cap(tigetstr("cup")) && tigetflag("hc") <= 0;
    TERMINAL *t = cur_term;
    set_curterm(NULL);
    del_curterm(t);
    if (!ok) {
        snprintf(msg, size, "this terminal (TERM=%s) cannot run the TUI; use the commands instead (byoc --help)",
                 term);
        return 3;
    }
    return 0;
}

static void write_str(int fd, const char *s)   /* async-signal-safe */
{
    size_t n = 0;
    while (s[n])
        n++;
    (void)!write(fd, s, n);
}

/* Async-signal-safe: put the tty back the way we found it, stderr included, and
 * show the end of what was written to stderr meanwhile (log lines are redacted
 * when written). */
static void emergency_restore(void)
{
    if (!T.active)
        return;
    if (T.reset_len)
        (void)!write(T.out_fd, T.reset, T.reset_len);
    if (T.have_saved)
        tcsetattr(T.in_fd, TCSANOW, &T.saved);
    if (T.saved_stderr >= 0) {
        dup2(T.saved_stderr, STDERR_FILENO);
        off_t size = T.parked >= 0 ? lseek(T.parked, 0, SEEK_END) : -1;
        if (size > 0 && lseek(T.parked, size > 4096 ? size - 4096 : 0, SEEK_SET) >= 0) {
            char buf[1024];
            ssize_t n;
            while ((n = read(T.parked, buf, sizeof buf)) > 0)
                (void)!write(STDERR_FILENO, buf, (size_t)n);
        }
    }
}

static const char *crash_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    default: return "a signal";
    }
}

static void on_crash(int sig)
{
    bool was_active = T.active;
    emergency_restore();
    T.active = false;
    if (was_active) {                    /* the signal name only: nothing from memory that may hold secrets */
        write_str(STDERR_FILENO, "\r\nbyoc: crashed (");
        write_str(STDERR_FILENO, crash_name(sig));
        write_str(STDERR_FILENO, "); the terminal has been restored. Please report what led to it.\n");
    }
    sigaction(sig, &T.old[sig], NULL);   /* the default action (or a sanitizer's report) */
    raise(sig);
}

/* The test-only crash (see TEST_CRASH_SIGNAL): a real fault of the UI thread. */
static void test_crash_now(void)
{
    if (T.test_crash == TEST_CRASH_ABORT)
        abort();
    /* A store into a page mapped with no access: a real SIGSEGV, and not a null
     * pointer, which the compiler may turn into a trap and UBSan reports and exits on. */
    volatile char *page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED)
        abort();
    page[0] = 1;
}

static void on_forwarded(int sig)
{
    int saved = errno;
    unsigned char c = (unsigned char)sig;
    if (T.pipe[1] >= 0)
        (void)!write(T.pipe[1], &c, 1);
    errno = saved;
}

static void append_cap(const char *name)
{
    const char *s = tigetstr(name);
    if (!usable_cap(s))
        return;
    for (; *s && T.reset_len + 1 < sizeof T.reset; s++) {
        if (s[0] == '$' && s[1] == '<') {        /* terminfo padding, not bytes to send */
            const char *e = strchr(s, '>');
            if (e) {
                s = e;
                continue;
            }
        }
        T.reset[T.reset_len++] = *s;
    }
}

static void park_stderr(void)
{
    if (!isatty(STDERR_FILENO))
        return;
    int mem = memfd_create("byoc-stderr", MFD_CLOEXEC);
    if (mem < 0)
        return;
    int saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (saved < 0 || dup2(mem, STDERR_FILENO) < 0) {
        close(mem);
        if (saved >= 0)
            close(saved);
        return;
    }
    T.saved_stderr = saved;
    T.parked = mem;
}

static void replay_stderr(void)
{
    if (T.saved_stderr < 0)
        return;
    fflush(stderr);
    dup2(T.saved_stderr, STDERR_FILENO);
    close(T.saved_stderr);
    T.saved_stderr = -1;
    /* the last 64 KiB is what matters (the end of a long debug output) */
    off_t size = lseek(T.parked, 0, SEEK_END);
    off_t from = size > 65536 ? size - 65536 : 0;
    char buf[8192];
    ssize_t n;
    if (lseek(T.parked, from, SEEK_SET) >= 0)
        while ((n = read(T.parked, buf, sizeof buf)) > 0)
            (void)!write(STDERR_FILENO, buf, (size_t)n);
    close(T.parked);
    T.parked = -1;
}

static void at_exit(void)
{
    tui_tty_stop();
}

static void install_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_forwarded;
    sa.sa_flags = SA_RESTART;
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
        sigaction(forwarded[i], &sa, &T.old[forwarded[i]]);
    if (T.test_crash)
        sigaction(TEST_CRASH_SIGNAL, &sa, &T.old[TEST_CRASH_SIGNAL]);
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_NODEFER | SA_RESETHAND;
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
        sigaction(crashes[i], &sa, &T.old[crashes[i]]);
}

static void restore_handlers(void)
{
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
        sigaction(forwarded[i], &T.old[forwarded[i]], NULL);
    if (T.test_crash)
        sigaction(TEST_CRASH_SIGNAL, &T.old[TEST_CRASH_SIGNAL], NULL);
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
        sigaction(crashes[i], &T.old[crashes[i]], NULL);
}

static bool locale_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

int tui_tty_start(bool colour, char *msg, size_t size)
{
    if (T.active)
        return 0;
    setlocale(LC_CTYPE, "");
    if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
        T.in_fd = STDIN_FILENO;
        T.out_fd = STDOUT_FILENO;
        T.in = stdin;
        T.out = stdout;
        T.own_files = false;
    } else {
        int fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
        if (fd < 0) {
            snprintf(msg, size, "no terminal: stdin/stdout are not terminals and /dev/tty cannot be opened");
            return -1;
        }
        T.in_fd = T.out_fd = fd;
        T.in = fdopen(fd, "r");
        int out_fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        T.out = out_fd >= 0 ? fdopen(out_fd, "w") : NULL;
        if (!T.in || !T.out) {
            snprintf(msg, size, "cannot open the terminal: %s", strerror(errno));
            if (T.in)
                fclose(T.in);
            else
                close(fd);
            if (T.out)
                fclose(T.out);
            else if (out_fd >= 0)
                close(out_fd);
            return -1;
        }
        T.own_files = true;
    }
    T.have_saved = tcgetattr(T.in_fd, &T.saved) == 0;

    if (pipe2(T.pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
        snprintf(msg, size, "pipe: %s", strerror(errno));
        return -1;
    }
    const char *crash = getenv("BYOC_TEST_CRASH");
    T.test_crash = !crash ? TEST_CRASH_NONE
                 : strcmp(crash, "segv") == 0 ? TEST_CRASH_SEGV
                 : strcmp(crash, "abort") == 0 ? TEST_CRASH_ABORT : TEST_CRASH_NONE;
    /* ours first: curses leaves a signal alone when a handler is already set */
    install_handlers();
    if (!T.atexit_set) {
        atexit(at_exit);
        T.atexit_set = true;
    }

    T.screen = newterm(NULL, T.out, T.in);
    if (!T.screen) {
        restore_handlers();
        for (int i = 0; i < 2; i++) {
            close(T.pipe[i]);
            T.pipe[i] = -1;
        }
        if (T.own_files) {
            fclose(T.in);
            fclose(T.out);
            T.own_files = false;
        }
        snprintf(msg, size, "cannot start curses on TERM=%s", getenv("TERM") ? getenv("TERM") : "");
        return -1;
    }
    T.active = true;
    T.reset_len = 0;
    append_cap("sgr0");
    append_cap("cnorm");
    append_cap("rmkx");
    append_cap("rmcup");
    park_stderr();

    raw();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    meta(stdscr, TRUE);
    curs_set(0);
    leaveok(stdscr, TRUE);
    if (!getenv("ESCDELAY"))
        set_escdelay(25);
    /* Home/End as tmux, screen and the Linux console send them, whatever TERM
     * claims (a TERM that does not match the terminal is common over SSH and
     * in multiplexers). Sequences the terminal description has are left alone. */
    static const struct {
        const char *seq;
        int key;
    } extra_keys[] = {
        {"\033[1~", KEY_HOME}, {"\033[4~", KEY_END}, {"\033[7~", KEY_HOME}, {"\033[8~", KEY_END},
        {"\033[H", KEY_HOME},  {"\033[F", KEY_END},  {"\033OH", KEY_HOME},  {"\033OF", KEY_END},
        {"\033[Z", KEY_BTAB},
    };
    for (size_t i = 0; i < sizeof extra_keys / sizeof extra_keys[0]; i++)
        if (key_defined(extra_keys[i].seq) == 0)
            define_key(extra_keys[i].seq, extra_keys[i].key);

    const char *ascii = getenv("BYOC_ASCII");
    bool utf8 = locale_utf8();
    tui_draw_set_utf8(utf8);
    bool acs = usable_cap(tigetstr("acsc"));
    T.glyphs = (utf8 && acs && !(ascii && *ascii && strcmp(ascii, "0") != 0)) ? TUI_GLYPHS_UTF8 : TUI_GLYPHS_ASCII;
    tui_style_init(colour, T.glyphs);
    return 0;
}

void tui_tty_stop(void)
{
    if (!T.active)
        return;
    T.active = false;
    endwin();
    if (T.have_saved)
        tcsetattr(T.in_fd, TCSANOW, &T.saved);
    replay_stderr();
    restore_handlers();
    if (T.screen) {
        delscreen(T.screen);
        T.screen = NULL;
    }
    if (T.own_files) {
        fclose(T.in);
        fclose(T.out);
        T.own_files = false;
    }
    for (int i = 0; i < 2; i++)
        if (T.pipe[i] >= 0) {
            close(T.pipe[i]);
            T.pipe[i] = -1;
        }
}

int tui_tty_input_fd(void)
{
    return T.in_fd;
}

int tui_tty_signal_fd(void)
{
    return T.pipe[0];
}

tui_signals tui_tty_signals(void)
{
    tui_signals s = {false, 0};
    unsigned char buf[64];
    ssize_t n;
    while ((n = read(T.pipe[0], buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < n; i++) {
            if (buf[i] == SIGWINCH)
                s.resize = true;
            else if (buf[i] == TEST_CRASH_SIGNAL && T.test_crash && T.active)
                test_crash_now();
            else if (!s.terminate)
                s.terminate = buf[i];
        }
    return s;
}

void tui_tty_resize(void)
{
    struct winsize ws;
    if (ioctl(T.out_fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
        resize_term(ws.ws_row, ws.ws_col);
    clearok(curscr, TRUE);
}

void tui_tty_suspend(void)
{
    struct sigaction dfl, old;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    def_prog_mode();
    endwin();
    if (T.have_saved)
        tcsetattr(T.in_fd, TCSANOW, &T.saved);
    if (T.saved_stderr >= 0)
        dup2(T.saved_stderr, STDERR_FILENO);
    sigaction(SIGTSTP, &dfl, &old);
    raise(SIGTSTP);                      /* stops here until fg (ignored when orphaned) */
    sigaction(SIGTSTP, &old, NULL);
    if (T.parked >= 0)
        dup2(T.parked, STDERR_FILENO);
    reset_prog_mode();
    tui_tty_resize();
}
