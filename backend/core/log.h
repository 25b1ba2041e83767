/* log: leveled logging to byoc's debug log and/or stderr, with secret redaction.
 *
 * Every secret byoc learns (secret keys, session tokens, ECR passwords,
 * X-Registry-Auth values) is registered with byoc_secret_register() the moment
 * it is read. Everything that leaves the process as text (log lines, error
 * messages, the screen) goes through byoc_redact_*(), which replaces each
 * registered secret with "***". This is a belt to the braces of never
 * formatting secrets in the first place. */
#ifndef BYOC_CORE_LOG_H
#define BYOC_CORE_LOG_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { BYOC_LOG_ERROR, BYOC_LOG_WARN, BYOC_LOG_INFO, BYOC_LOG_DEBUG } byoc_log_level;

/* Secrets shorter than this are not registered: redacting "a" everywhere
 * would garble output and such a value is no credential. */
#define BYOC_SECRET_MIN_LEN 6

void byoc_secret_register(const char *secret);
/* Forget all registered secrets (tests). */
void byoc_secret_clear_all(void);

/* Replace every registered secret in s with "***" (never grows s). */
void byoc_redact_inplace(char *s);
/* Redacted copy, caller frees. */
char *byoc_redact_dup(const char *s);

/* Where log lines go. stderr_level: lines at or above that level also go to
 * stderr (-1 for none). path: the debug log file, created 0600 in a 0700
 * directory, appended to; NULL for none. Returns 0, or -1 if the file could
 * not be opened (logging to stderr still works). */
int byoc_log_init(const char *path, int stderr_level, int file_level);
void byoc_log_close(void);

void byoc_log(byoc_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Create a directory and its parents with mode 0700 (existing ones untouched). */
int byoc_mkdir_p(const char *path, unsigned mode);

/* $XDG_STATE_HOME/byoc or ~/.local/state/byoc; caller frees. */
char *byoc_state_dir(void);

#endif
