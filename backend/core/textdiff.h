/* textdiff: a line diff of two small texts in unified format, for previews
 * (a policy before and after an edit). Longest-common-subsequence over
 * lines, so it is meant for texts of a few thousand lines at most. */
#ifndef BYOC_CORE_TEXTDIFF_H
#define BYOC_CORE_TEXTDIFF_H

/* "--- label_a\n+++ label_b\n@@ -a,b +c,d @@\n context / -removed / +added ...",
 * with `context` lines around each change; "" when the texts are equal.
 * NULL texts count as empty. malloc'd. */
char *byoc_unified_diff(const char *a, const char *b, const char *label_a, const char *label_b, int context);

#endif
