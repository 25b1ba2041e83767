/* check: the smallest test harness that tells you what failed and where.
 *   CHECK(cond)               fails the test, continues
 *   CHECK_STR(a, b)           string equality, prints both
 *   CHECK_INT(a, b)           integer equality, prints both
 *   check_done()              prints "N passed, N failed" and returns the exit code
 * Helpers for tests: read a file, locate the fixtures and the source tree. */
#ifndef BYOC_TEST_CHECK_H
#define BYOC_TEST_CHECK_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

extern int check_passed, check_failed;

void check_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define CHECK(c) \
    do { if (c) check_passed++; else check_fail(__FILE__, __LINE__, "%s", #c); } while (0)
#define CHECK_STR(a, b) \
    do { const char *a_ = (a), *b_ = (b); \
         if (a_ && b_ && strcmp(a_, b_) == 0) check_passed++; \
         else check_fail(__FILE__, __LINE__, "%s == %s\n   got: [%s]\n  want: [%s]", #a, #b, \
                         a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } while (0)
#define CHECK_INT(a, b) \
    do { long long a_ = (long long)(a), b_ = (long long)(b); \
         if (a_ == b_) check_passed++; \
         else check_fail(__FILE__, __LINE__, "%s == %s: got %lld, want %lld", #a, #b, a_, b_); } while (0)

int check_done(void);

/* Whole file into a NUL-terminated malloc'd buffer (len may be NULL); NULL if unreadable. */
char *check_read_file(const char *path, size_t *len);
/* <source>/tests/fixtures: data the tests read (the repository carries all of it) */
const char *check_fixture_dir(void);
/* $BYOC_SOURCE_DIR */
const char *check_source_dir(void);
/* Environment variable that must be set (integration tests); exits 1 with a message if unset. */
const char *check_env(const char *name);
/* A fresh temporary directory (mkdtemp under $TMPDIR), removed by the caller if it wishes. */
char *check_tmpdir(void);
/* dir/rel with text (len (size_t)-1: strlen), its parent directories made as needed. */
void check_write_file(const char *dir, const char *rel, const char *text, size_t len);
/* Remove a tree without following links (nftw, FTW_PHYS). */
void check_rm_tree(const char *dir);

#endif
