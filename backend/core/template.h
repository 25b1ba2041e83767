/* template: the small template language of byoc's assets.
 *   {{NAME}}            the value of a variable (unknown names are an error)
 *   {{#if NAME}}        a line of its own: keep the lines up to {{#else}} or
 *   {{#if !NAME}}       {{/if}} when NAME is true (set, not "", "false" or "0");
 *   {{#if NAME=value}}  when NAME equals value. Blocks nest.
 *   {{#else}} {{/if}}
 *   {{>partial}}        a line of its own: the rendered partial file
 *                       <partials_dir>/<partial>.tmpl (nesting bounded)
 * Lines holding only a block tag vanish from the output. */
#ifndef BYOC_CORE_TEMPLATE_H
#define BYOC_CORE_TEMPLATE_H

#include <stddef.h>

#include "core/err.h"
#include "core/kv.h"

typedef struct byoc_template_vars {
    const byoc_kv *vars;
    size_t n;
    const char *partials_dir;    /* may be NULL when no partials are used */
} byoc_template_vars;

/* Render text; the result is malloc'd. Errors (an unknown variable, an
 * unbalanced block, a missing partial) fail with kind FAILED naming `name`
 * and the line. */
int byoc_template_render(const char *name, const char *text, const byoc_template_vars *v, char **out,
                         byoc_err *err);

#endif
