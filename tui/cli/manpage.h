/* manpage: the man page byoc(1), in roff, written from the verb table (their
 * synopses and --help texts), the command-line tables of cli_doc.h and the
 * action table of the TUI (action.h). The build runs `byoc __man` to make
 * byoc.1, so the page says what the binary does. */
#ifndef BYOC_TUI_MANPAGE_H
#define BYOC_TUI_MANPAGE_H

#include <stdio.h>

void byoc_manpage_write(FILE *out);

#endif
