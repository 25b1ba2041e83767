/* pyspec: Python version specifiers, as written in requires-python (PEP 440:
 * "==3.10.*", ">=3.9,<3.12", "~=3.11"), in Poetry ("^3.10", "~3.11"), or as a
 * bare version ("3.10", "3.10.4" from .python-version). Answers the one
 * question the wizard asks of them: does a given minor series (the prebuilt
 * images' 3.12) satisfy the specifier? */
#ifndef BYOC_BYOC_PYSPEC_H
#define BYOC_BYOC_PYSPEC_H

#include <stdbool.h>

/* 1 if some release of the series "M.m" satisfies spec, 0 if none does,
 * -1 if spec cannot be parsed. An empty spec allows everything. */
int byoc_pyspec_allows_series(const char *spec, const char *series);

/* Is the text a specifier byoc_pyspec_allows_series understands? */
bool byoc_pyspec_valid(const char *spec);

#endif
