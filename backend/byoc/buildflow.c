#include "byoc/buildflow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/buf.h"

void byoc_build_git_facts_read(const char *dir, byoc_build_git_facts *out)
{
    memset(out, 0, sizeof *out);
    byoc_err gerr;
    if (byoc_git_revision(dir, &out->rev, &gerr) != 0) {
        byoc_git_rev_clear(&out->rev);
        memset(&out->rev, 0, sizeof out->rev);
    }
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    out->source_date_epoch = sde && *sde ? byoc_xstrdup(sde) : NULL;
    out->now = time(NULL);
}

void byoc_build_git_facts_clear(byoc_build_git_facts *g)
{
    byoc_git_rev_clear(&g->rev);
    free(g->source_date_epoch);
    memset(g, 0, sizeof *g);
}

static char *resolve(const char *path, const char *project_dir)
{
    if (path[0] == '/' || !project_dir || !*project_dir)
        return byoc_xstrdup(path);
    return byoc_xasprintf("%s/%s", project_dir, path);
}

static char *opt_dup(const char *s)
{
    return s && *s ? byoc_xstrdup(s) : NULL;
}

/* The git tag and the OCI labels. Each label is a build step on the classic
 * builder, so values stay stable where they can: created honours
 * SOURCE_DATE_EPOCH (reproducible builds). */
static void git_plan(const byoc_project *proj, const byoc_build_git_facts *g, byoc_build_plan *p)
{
    if (!g || !g->rev.is_repo)
        return;
    if (proj->name && *proj->name) {
        p->git_tag = byoc_git_image_tag(proj->name, &g->rev);
        if (p->git_tag && !byoc_strv_contains(&p->tags, p->git_tag))
            byoc_strv_push(&p->tags, p->git_tag);
    }
    if (g->rev.unborn)
        return;
    json_t *labels = byoc_git_labels(&g->rev);
    const char *k;
    json_t *v;
    json_object_foreach(labels, k, v) byoc_strv_pushf(&p->labels, "%s=%s", k, json_string_value(v));
    json_decref(labels);
    p->has_created = true;
    p->created = g->source_date_epoch ? (time_t)strtoll(g->source_date_epoch, NULL, 10) : g->now;
    struct tm tm;
    gmtime_r(&p->created, &tm);
    char created[96];
    strftime(created, sizeof created, "org.opencontainers.image.created=%Y-%m-%dT%H:%M:%SZ", &tm);
    byoc_strv_push(&p->labels, created);
}

void byoc_build_plan_make(const byoc_project *proj, const char *project_dir, const byoc_build_flags *f,
                          const byoc_build_git_facts *git, byoc_build_plan *p)
{
    memset(p, 0, sizeof *p);
    const char *ctx = f->context ? f->context : proj->context ? proj->context : ".";
    p->context_dir = resolve(*ctx ? ctx : ".", project_dir);
    if (f->dockerfile && *f->dockerfile)
        p->dockerfile = f->dockerfile_from_cwd ? byoc_xstrdup(f->dockerfile) : resolve(f->dockerfile, project_dir);
    else if (!f->replace_project && proj->dockerfile && json_object_get(proj->doc, "dockerfile"))
        p->dockerfile = resolve(proj->dockerfile, project_dir);

    /* Tags: the flags, else byoc.json's; plus the git revision's. */
    for (size_t i = 0; i < f->n_tags; i++)
        byoc_strv_push(&p->tags, f->tags[i]);
    for (size_t i = 0; f->n_tags == 0 && !f->replace_project && i < proj->n_tags; i++)
        byoc_strv_push(&p->tags, proj->tags[i]);
    /* Build args: byoc.json's first, the flags after them (the later one of a key wins). */
    for (size_t i = 0; !f->replace_project && i < proj->n_build_args; i++)
        byoc_strv_pushf(&p->build_args, "%s=%s", proj->build_args[i].key, proj->build_args[i].value);
    for (size_t i = 0; i < f->n_build_args; i++)
        byoc_strv_push(&p->build_args, f->build_args[i]);
    for (size_t i = 0; i < f->n_labels; i++)
        byoc_strv_push(&p->labels, f->labels[i]);
    git_plan(proj, git, p);

    p->target = opt_dup(f->target);
    p->platform = opt_dup(f->platform);
    p->network = opt_dup(f->network);
    byoc_build_opts *o = &p->opts;
    o->context_dir = p->context_dir;
    o->dockerfile = p->dockerfile;
    o->tags = (const char *const *)p->tags.v;
    o->n_tags = p->tags.n;
    o->build_args = (const char *const *)p->build_args.v;
    o->n_build_args = p->build_args.n;
    o->labels = (const char *const *)p->labels.v;
    o->n_labels = p->labels.n;
    o->target = p->target;
    o->platform = p->platform;
    o->network = p->network;
    o->no_cache = f->no_cache;
    o->pull = f->pull;
}

void byoc_build_plan_clear(byoc_build_plan *p)
{
    free(p->context_dir);
    free(p->dockerfile);
    byoc_strv_clear(&p->tags);
    byoc_strv_clear(&p->build_args);
    byoc_strv_clear(&p->labels);
    free(p->git_tag);
    free(p->target);
    free(p->platform);
    free(p->network);
    memset(p, 0, sizeof *p);
}

int byoc_build_flags_check(const byoc_build_flags *f, byoc_err *err)
{
    byoc_build_opts o = {
        .context_dir = ".",
        .tags = f->tags,
        .n_tags = f->n_tags,
        .build_args = f->build_args,
        .n_build_args = f->n_build_args,
        .labels = f->labels,
        .n_labels = f->n_labels,
        .target = f->target,
        .platform = f->platform,
        .network = f->network,
    };
    return byoc_build_validate(&o, err);
}
