/* dispatch: `byoc [GLOBAL FLAGS] VERB [ARGS]`. Takes the global flags, runs the
 * verb of the table (cli_verbs.c), --help, --version and the hidden __man and
 * __complete, and maps a failure to its exit code (cli.h prints it). */
#ifndef BYOC_TUI_DISPATCH_H
#define BYOC_TUI_DISPATCH_H

int byoc_cli_main(int argc, char **argv);

#endif
