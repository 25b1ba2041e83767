/* complete: `byoc __complete WORD... CURRENT`, the one call behind the bash,
 * zsh and fish completions (completions/). Given the words typed after
 * "byoc", the last being the one under the cursor (maybe ""), it prints the
 * candidates that start with it, one a line: verbs, the verb's flags (read
 * from the verb table's synopsis and --help text, so they follow the verbs),
 * a flag's choices, and live values where the verb takes them: local images,
 * ECR repositories, job names, AWS profiles, regions. Nothing printed means
 * "complete file names". Live lookups are bounded by a short deadline, and
 * every failure is silent: a completion never prints an error. */
#ifndef BYOC_TUI_COMPLETE_H
#define BYOC_TUI_COMPLETE_H

#include <stddef.h>

typedef enum {
    BYOC_COMPLETE_NOTHING,   /* free text, or file names */
    BYOC_COMPLETE_VERBS,
    BYOC_COMPLETE_FLAGS,     /* the global flags, and the verb's when there is one */
    BYOC_COMPLETE_CHOICES,   /* fixed words (choices) */
    BYOC_COMPLETE_IMAGES,    /* local images, repo:tag */
    BYOC_COMPLETE_REPOS,     /* ECR repositories */
    BYOC_COMPLETE_JOBS,      /* job names */
    BYOC_COMPLETE_PROFILES,  /* AWS profiles */
    BYOC_COMPLETE_REGIONS,
} byoc_complete_kind;

#define BYOC_COMPLETE_MAX_CHOICES 16

typedef struct byoc_complete_what {
    byoc_complete_kind kind;
    const char *verb;        /* the verb typed, or NULL */
    const char *current;     /* the word being completed */
    const char *profile;     /* --profile / --region typed on the line, or NULL */
    const char *region;
    char choices[BYOC_COMPLETE_MAX_CHOICES][48];
    size_t n_choices;
} byoc_complete_what;

/* What the word under the cursor is; pure (no lookups). words[n-1] is it. */
void byoc_complete_analyse(int n, char **words, byoc_complete_what *out);
/* Each flag of a verb (NULL: the global flags), long form; returns how many. */
size_t byoc_complete_flags(const char *verb, void (*fn)(const char *flag, void *ud), void *ud);
/* The hidden verb: prints the candidates; always returns 0. */
int byoc_complete_main(int n, char **words);

#endif
