/* The Build screen's model: the settings form filled from byoc.json (parsed
 * by the real project module), checked like `byoc build` checks its flags,
 * written back; the build plan its settings make; the default tag; quoting of
 * space-separated fields; the lint's Dockerfile path; error lines. */
#include <stdlib.h>
#include <string.h>

#include "build_model.h"
#include "check.h"
#include "keys.h"

static void type(tui_form *f, const char *s)
{
    for (; *s; s++)
        tui_form_handle(f, (unsigned char)*s, TUI_ACT_NONE);
}

static void empty_field(tui_form *f, const char *key)
{
    for (size_t i = 0; i < f->count; i++)
        if (strcmp(f->fields[i].key, key) == 0)
            tui_form_focus(f, i);
    tui_form_handle(f, TUI_KEY_END, TUI_ACT_LINE_END);
    tui_form_handle(f, TUI_KEY_CTRL('u'), TUI_ACT_KILL_LINE);
}

int main(void)
{
    /* words */
    byoc_strv w = BYOC_STRV_INIT;
    tui_build_split_words("A=1  \"B=two words\" C='x y' D", &w);
    CHECK_INT(w.n, 4);
    CHECK_STR(w.v[0], "A=1");
    CHECK_STR(w.v[1], "B=two words");
    CHECK_STR(w.v[2], "C=x y");
    CHECK_STR(w.v[3], "D");
    char *joined = tui_build_join_words((const char *const *)w.v, w.n);
    CHECK_STR(joined, "A=1 \"B=two words\" \"C=x y\" D");
    byoc_strv back = BYOC_STRV_INIT;
    tui_build_split_words(joined, &back);
    CHECK_INT(back.n, 4);
    CHECK_STR(back.v[1], "B=two words");                  /* join and split round-trip */
    free(joined);
    byoc_strv_clear(&back);
    byoc_strv_clear(&w);
    const char *odd[] = {"Q=say \"hi\"\\now"};
    joined = tui_build_join_words(odd, 1);
    tui_build_split_words(joined, &back);
    CHECK_INT(back.n, 1);
    CHECK_STR(back.v[0], odd[0]);
    free(joined);
    byoc_strv_clear(&back);

    /* the default tag */
    char *t = tui_build_default_tag("My Project", "/x/y");
    CHECK_STR(t, "my-project:latest");
    free(t);
    t = tui_build_default_tag(NULL, "/home/ada/qaoa_job.v2");
    CHECK_STR(t, "qaoa-job-v2:latest");
    free(t);
    t = tui_build_default_tag(NULL, "/");
    CHECK_STR(t, "byoc-image:latest");
    free(t);

    /* the form from byoc.json */
    const char *json = "{\"name\": \"qaoa\", \"context\": \"src\", \"tags\": [\"qaoa:1\", \"qaoa:latest\"],"
                       " \"build_args\": {\"WHO\": \"me and you\"}, \"extra\": 1}";
    byoc_project p;
    byoc_err err;
    CHECK_INT(byoc_project_parse(&p, json, strlen(json), &err), 0);
    char *df = tui_build_project_dockerfile(&p);
    CHECK_STR(df, "src/Dockerfile");                     /* no "dockerfile": the context's */
    free(df);
    tui_form f;
    tui_form_init(&f);
    tui_build_form_build(&f);
    CHECK_INT(f.count, 9);
    CHECK_STR(tui_form_value(&f, "lint"), "true");
    CHECK_STR(tui_form_value(&f, "network"), "default");
    tui_build_form_load(&f, &p, "unused:latest");
    CHECK_STR(tui_form_value(&f, "context"), "src");
    CHECK_STR(tui_form_value(&f, "dockerfile"), "src/Dockerfile");
    CHECK_STR(tui_form_value(&f, "tags"), "qaoa:1 qaoa:latest");
    CHECK_STR(tui_form_value(&f, "build_args"), "\"WHO=me and you\"");
    CHECK_INT(tui_form_validate(&f), 0);

    /* the settings, as options */
    tui_build_settings s;
    tui_build_settings_from_form(&f, &s);
    CHECK_INT(s.tags.n, 2);
    CHECK_STR(s.build_args.v[0], "WHO=me and you");
    CHECK(s.lint);
    CHECK(!s.no_cache);
    CHECK(!tui_build_settings_to_project(&s, &p));       /* nothing changed */
    byoc_build_flags fl;
    tui_build_flags_of(&s, &fl);
    byoc_build_plan plan;
    byoc_build_plan_make(&p, "/proj", &fl, NULL, &plan);
    CHECK_STR(plan.opts.context_dir, "/proj/src");
    CHECK_STR(plan.opts.dockerfile, "/proj/src/Dockerfile");
    CHECK_INT(plan.opts.n_tags, 2);
    CHECK_STR(plan.opts.tags[1], "qaoa:latest");
    CHECK_INT(plan.opts.n_build_args, 1);                /* the form's, not byoc.json's again */
    CHECK_INT(plan.opts.n_labels, 0);
    CHECK(plan.opts.network == NULL);
    CHECK(plan.opts.target == NULL);
    CHECK_INT(byoc_build_validate(&plan.opts, &err), 0);
    byoc_build_plan_clear(&plan);
    tui_build_settings_clear(&s);

    /* edits: checked as the flags are */
    empty_field(&f, "tags");
    type(&f, "qaoa:2 Bad:Ref");
    CHECK_INT(tui_form_validate(&f), 1);
    CHECK(strstr(tui_form_field(&f, "tags")->msg, "lowercase") != NULL);
    empty_field(&f, "tags");
    type(&f, "qaoa:2");
    empty_field(&f, "build_args");
    type(&f, "=oops");
    CHECK_INT(tui_form_validate(&f), 1);
    CHECK(tui_form_field(&f, "build_args")->msg[0] != '\0');
    empty_field(&f, "build_args");
    type(&f, "WHO=us N=2");
    empty_field(&f, "platform");
    type(&f, "linux//amd64");
    CHECK_INT(tui_form_validate(&f), 1);
    CHECK(strstr(tui_form_field(&f, "platform")->msg, "OS[/ARCH") != NULL);
    empty_field(&f, "platform");
    type(&f, "linux/amd64");
    empty_field(&f, "dockerfile");
    CHECK_INT(tui_form_validate(&f), 1);                 /* required */
    type(&f, "docker/Dockerfile.gpu");
    tui_form_set_value(&f, "network", "host");
    tui_form_set_value(&f, "no_cache", "true");
    tui_form_set_value(&f, "lint", "false");
    CHECK_INT(tui_form_validate(&f), 0);

    /* back into byoc.json: its fields change, unknown keys stay */
    tui_build_settings_from_form(&f, &s);
    CHECK(!s.lint);
    CHECK(s.no_cache);
    CHECK_STR(s.network, "host");
    CHECK(tui_build_settings_to_project(&s, &p));
    CHECK_INT(p.n_tags, 1);
    CHECK_STR(p.tags[0], "qaoa:2");
    CHECK_STR(p.dockerfile, "docker/Dockerfile.gpu");
    CHECK_INT(p.n_build_args, 2);
    CHECK_STR(byoc_project_build_arg(&p, "WHO"), "us");
    CHECK_STR(byoc_project_build_arg(&p, "N"), "2");
    json_t *doc = byoc_project_to_json(&p);
    char *text = json_dumps(doc, JSON_COMPACT);
    CHECK(strstr(text, "\"extra\":1") != NULL);
    CHECK(strstr(text, "\"dockerfile\":\"docker/Dockerfile.gpu\"") != NULL);
    free(text);
    json_decref(doc);
    CHECK(!tui_build_settings_to_project(&s, &p));       /* a second time: nothing new */
    tui_build_flags_of(&s, &fl);
    byoc_build_plan_make(&p, "/proj", &fl, NULL, &plan);
    CHECK_STR(plan.opts.network, "host");
    CHECK_STR(plan.opts.platform, "linux/amd64");
    CHECK(plan.opts.no_cache);
    CHECK_STR(plan.opts.dockerfile, "/proj/docker/Dockerfile.gpu");
    byoc_build_plan_clear(&plan);
    tui_build_settings_clear(&s);

    /* a project without tags gets the suggestion; byoc.json's own dockerfile wins */
    byoc_project q;
    const char *json2 = "{\"dockerfile\": \"build/Dockerfile\", \"context\": \"src\"}";
    CHECK_INT(byoc_project_parse(&q, json2, strlen(json2), &err), 0);
    tui_build_form_load(&f, &q, "proj:latest");
    CHECK_STR(tui_form_value(&f, "tags"), "proj:latest");
    CHECK_STR(tui_form_value(&f, "dockerfile"), "build/Dockerfile");
    CHECK_STR(tui_form_value(&f, "build_args"), "");
    byoc_project_clear(&q);

    /* the lint's Dockerfile, relative to the project */
    char *l = tui_build_lint_dockerfile("docker/Dockerfile", "/p");
    CHECK_STR(l, "docker/Dockerfile");
    free(l);
    l = tui_build_lint_dockerfile("./Dockerfile", "/p");
    CHECK_STR(l, "Dockerfile");
    free(l);
    l = tui_build_lint_dockerfile("/p/sub/Dockerfile", "/p/");
    CHECK_STR(l, "sub/Dockerfile");
    free(l);
    CHECK(tui_build_lint_dockerfile("/elsewhere/Dockerfile", "/p") == NULL);
    CHECK(tui_build_lint_dockerfile("../Dockerfile", "/p") == NULL);
    CHECK(tui_build_lint_dockerfile("/pother/Dockerfile", "/p") == NULL);

    /* error lines */
    CHECK(tui_build_line_is_error("The command '/bin/sh -c exit 3' returned a non-zero code: 3"));
    CHECK(tui_build_line_is_error("error: COPY failed: file not found in build context"));
    CHECK(tui_build_line_is_error("ERROR: Could not find a version that satisfies the requirement x"));
    CHECK(!tui_build_line_is_error("Step 2/3 : RUN echo hi"));
    CHECK(!tui_build_line_is_error(" ---> Running in 0123456789ab"));
    CHECK(!tui_build_line_is_error(NULL));

    tui_form_clear(&f);
    byoc_project_clear(&p);
    return check_done();
}
