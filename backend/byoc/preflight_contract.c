/* preflight, the container contract: what the service meets when it runs
 * `docker run <image> train`, judged from the image's config and its files
 * without running anything in it (docker/imagefs.h), so an image without a
 * shell is judged like any other. A fact that could not be read is a warning,
 * never a pass. Then the entry point as the image's launcher takes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byoc/contract.h"
#include "byoc/preflight_ctx.h"
#include "byoc/pyspec.h"
#include "byoc/scan.h"
#include "core/buf.h"
#include "docker/images.h"
#include "docker/imagefs.h"

typedef enum { F_NO = 0, F_YES, F_UNKNOWN } fact;

typedef struct {
    byoc_imagefs *fs;
    const char *path_var;         /* the image's PATH, or docker's default */
    const char *program;          /* SAGEMAKER_PROGRAM, or NULL */
    fact program_present;
    fact has_train;
    char *train;                  /* its PATH entry */
    char *train_real;             /* where its links lead */
    fact train_is_sm;             /* sagemaker-training's console script */
    char *interp;                 /* the #! interpreter, or NULL */
    fact interp_present;
    fact has_python;
    char *python, *python_real;
    char why[900];                /* the first "could not look" */
} facts;

static void note_error(facts *f, const byoc_err *err)
{
    if (!f->why[0])
        byoc_err_format(err, f->why, sizeof f->why);
}

static const char *env_value(const json_t *env, const char *name)
{
    size_t i, nl = strlen(name);
    json_t *v;
    json_array_foreach(env, i, v) {
        const char *s = json_string_value(v);
        if (s && strncmp(s, name, nl) == 0 && s[nl] == '=')
            return s + nl + 1;
    }
    return NULL;
}

static fact which(facts *f, const char *name, char **found)
{
    byoc_err err;
    byoc_err_clear(&err);
    int rc = byoc_imagefs_which(f->fs, f->path_var, name, found, &err);
    if (rc < 0)
        note_error(f, &err);
    return rc < 0 ? F_UNKNOWN : rc ? F_YES : F_NO;
}

/* "#!/usr/bin/env python3 -u" -> "python3"; "#!/bin/sh -e" -> "/bin/sh". */
static char *shebang_interpreter(const char *text)
{
    if (strncmp(text, "#!", 2) != 0)
        return NULL;
    const char *p = text + 2;
    p += strspn(p, " \t");
    size_t n = strcspn(p, " \t\r\n");
    char *interp = byoc_xstrndup(p, n);
    if (strcmp(interp, "/usr/bin/env") == 0 || strcmp(interp, "/bin/env") == 0) {
        const char *q = p + n;
        q += strspn(q, " \t");
        if (strncmp(q, "-S", 2) == 0 && (q[2] == ' ' || q[2] == '\t'))
            q += 2 + strspn(q + 2, " \t");
        size_t m = strcspn(q, " \t\r\n");
        if (m) {
            free(interp);
            interp = byoc_xstrndup(q, m);
        }
    }
    return interp;
}

static void read_train(facts *f)
{
    byoc_err err;
    byoc_err_clear(&err);
    byoc_imagefs_info st;
    if (byoc_imagefs_stat(f->fs, f->train, &st, &f->train_real, &err) != 0) {
        note_error(f, &err);
        f->train_is_sm = f->interp_present = F_UNKNOWN;
        return;
    }
    char *text = NULL;
    size_t len = 0;
    int rc = byoc_imagefs_read(f->fs, f->train, 64 * 1024, &text, &len, &err);
    if (rc <= 0) {
        if (rc < 0)
            note_error(f, &err);
        f->train_is_sm = f->interp_present = F_UNKNOWN;
        return;
    }
    /* pip's console script for sagemaker-training: "from sagemaker_training.cli.train import main". */
    f->train_is_sm = len == strlen(text) && strstr(text, "sagemaker_training") ? F_YES : F_NO;
    f->interp = shebang_interpreter(text);
    if (!f->interp) {
        f->interp_present = F_YES; /* a binary (or a script the kernel cannot start: exec fails, as it would) */
    } else {
        char *found = NULL;
        f->interp_present = which(f, f->interp, &found);
        free(found);
    }
    free(text);
}

/* "/usr/bin/python3.11" -> "3.11", or "" when the name carries no version. */
static void python_series(const char *real, char *out, size_t size)
{
    const char *base = real ? strrchr(real, '/') : NULL;
    int major = 0, minor = 0;
    out[0] = '\0';
    if (base && sscanf(base + 1, "python%d.%d", &major, &minor) == 2)
        snprintf(out, size, "%d.%d", major, minor);
}

/* sagemaker_training where the train script's python imports from. */
static fact find_sagemaker_training(facts *f, const char *python_real, char *where, size_t where_size)
{
    char series[16];
    python_series(python_real, series, sizeof series);
    byoc_buf dirs = BYOC_BUF_INIT;
    const char *prefixes[] = {"/usr/local", "/usr", "/opt/conda"};
    if (python_real) {
        /* <prefix>/bin/pythonX.Y -> <prefix>/lib/pythonX.Y/site-packages */
        char *prefix = byoc_xstrdup(python_real);
        char *slash = strrchr(prefix, '/');
        if (slash)
            *slash = '\0';
        slash = strrchr(prefix, '/');
        if (slash && strcmp(slash, "/bin") == 0)
            *slash = '\0';
        byoc_buf_printf(&dirs, "%s/lib/python%s/site-packages:", prefix, series[0] ? series : "3");
        free(prefix);
    }
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (series[0])
            byoc_buf_printf(&dirs, "%s/lib/python%s/site-packages:%s/lib/python%s/dist-packages:", prefixes[i], series,
                            prefixes[i], series);
    byoc_buf_puts(&dirs, "/usr/lib/python3/dist-packages:/usr/local/lib/python3/dist-packages");
    fact res = F_NO;
    char *list = byoc_buf_steal(&dirs);
    for (char *save = NULL, *d = strtok_r(list, ":", &save); d && res == F_NO; d = strtok_r(NULL, ":", &save)) {
        char *p = byoc_xasprintf("%s/sagemaker_training/__init__.py", d);
        byoc_imagefs_info st;
        byoc_err err;
        byoc_err_clear(&err);
        if (byoc_imagefs_stat(f->fs, p, &st, NULL, &err) != 0) {
            note_error(f, &err);
            res = F_UNKNOWN;
        } else if (st.exists) {
            snprintf(where, where_size, "%s/sagemaker_training", d);
            res = F_YES;
        }
        free(p);
    }
    free(list);
    return res;
}

static char *strv_text(const json_t *a)
{
    byoc_buf b = BYOC_BUF_INIT;
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v)
        byoc_buf_printf(&b, "%s\"%s\"", i ? ", " : "[", json_string_value(v) ? json_string_value(v) : "");
    byoc_buf_puts(&b, "]");
    return byoc_buf_steal(&b);
}

/* The image's Python against what the project asks for (pyproject requires-python, .python-version...). */
static void python_check(pf_ctx *c, const char *python, const char *series)
{
    byoc_scan scan;
    memset(&scan, 0, sizeof scan);
    byoc_err err;
    byoc_err_clear(&err);
    const char *spec = NULL, *evidence = "";
    if (c->opts->project_dir && byoc_scan_project(c->opts->project_dir, &scan, &err) == 0 && scan.python_spec) {
        spec = scan.python_spec;
        evidence = scan.python_evidence ? scan.python_evidence : "the project";
    }
    int allowed = spec && *series ? byoc_pyspec_allows_series(spec, series) : 1;
    if (allowed == 0)
        pf_add(c, PF_ORD_CONTRACT + 4, "contract.python", BYOC_PF_WARN,
               "build the image on a base with a Python the project allows, or relax the project's requirement",
               "%s is Python %s, but %s asks for %s: code and wheels may not work there", python, series, evidence,
               spec);
    else
        pf_add(c, PF_ORD_CONTRACT + 4, "contract.python", BYOC_PF_PASS, NULL, "%s is Python %s%s%s%s", python,
               *series ? series : "3 (its file name carries no minor version)", spec ? " (the project asks for " : "",
               spec ? spec : "", spec ? ")" : "");
    byoc_scan_clear(&scan);
}

static void gather(facts *f, const json_t *config)
{
    const json_t *env = json_object_get(config, "Env");
    f->path_var = env_value(env, "PATH");
    f->program = env_value(env, "SAGEMAKER_PROGRAM");
    if (f->program && *f->program) {
        char *p = byoc_contract_program_path(f->program);
        byoc_imagefs_info st;
        byoc_err err;
        byoc_err_clear(&err);
        if (byoc_imagefs_stat(f->fs, p, &st, NULL, &err) != 0) {
            note_error(f, &err);
            f->program_present = F_UNKNOWN;
        } else {
            f->program_present = st.exists && st.is_regular ? F_YES : F_NO;
        }
        free(p);
    }
    f->has_train = which(f, "train", &f->train);
    if (f->has_train == F_YES)
        read_train(f);
    f->has_python = which(f, "python3", &f->python);
    if (f->has_python == F_NO)
        f->has_python = which(f, "python", &f->python);
    if (f->has_python == F_YES) {
        byoc_imagefs_info st;
        byoc_err err;
        byoc_err_clear(&err);
        if (byoc_imagefs_stat(f->fs, f->python, &st, &f->python_real, &err) != 0)
            note_error(f, &err);
    }
}

static void contract_checks(pf_ctx *c, facts *f, const json_t *config)
{
    const json_t *ep = json_object_get(config, "Entrypoint");
    bool has_ep = json_array_size(ep) > 0;
    char *ep_text = has_ep ? strv_text(ep) : NULL;
    const char *program = f->program && *f->program ? f->program : NULL;
    const char *path_shown = f->path_var ? f->path_var : BYOC_IMAGEFS_DEFAULT_PATH " (docker's default)";

    if (!program) {
        if (has_ep)
            pf_add(c, PF_ORD_CONTRACT + 1, "contract.program", BYOC_PF_WARN,
                   "set ENV SAGEMAKER_PROGRAM=<launcher>.py if the ENTRYPOINT relies on sagemaker-training",
                   "SAGEMAKER_PROGRAM is not set; the image's ENTRYPOINT %s must start the job itself", ep_text);
        else
            pf_add(c, PF_ORD_CONTRACT + 1, "contract.program", BYOC_PF_FAIL,
                   "add ENV SAGEMAKER_PROGRAM=braket_container.py and COPY the launcher to /opt/ml/code/",
                   "SAGEMAKER_PROGRAM is not set: `train` finds no program to start (\"not setup to run Braket Jobs\")");
    } else if (f->program_present == F_UNKNOWN) {
        pf_add(c, PF_ORD_CONTRACT + 1, "contract.program", BYOC_PF_WARN, "check that the file is in the image",
               "SAGEMAKER_PROGRAM=%s: /opt/ml/code/%s could not be looked for: %s", program, program, f->why);
    } else if (f->program_present == F_NO) {
        pf_add(c, PF_ORD_CONTRACT + 1, "contract.program", BYOC_PF_FAIL,
               "COPY the launcher into /opt/ml/code/ in the Dockerfile",
               "SAGEMAKER_PROGRAM=%s but /opt/ml/code/%s is not in the image", program, program);
    } else {
        pf_add(c, PF_ORD_CONTRACT + 1, "contract.program", BYOC_PF_PASS, NULL,
               "SAGEMAKER_PROGRAM=%s, /opt/ml/code/%s present", program, program);
    }

    bool has_train = f->has_train == F_YES;
    if (f->has_train == F_UNKNOWN)
        pf_add(c, PF_ORD_CONTRACT + 2, "contract.train", BYOC_PF_WARN, "check that `train` is on the image's PATH",
               "`train` could not be looked for: %s", f->why);
    else if (has_train && f->interp_present == F_NO)
        pf_add(c, PF_ORD_CONTRACT + 2, "contract.train", BYOC_PF_FAIL,
               "install the interpreter in the image, or make train a program of its own",
               "train is %s, a script for %s, which is not in the image: the service's `train` cannot start", f->train,
               f->interp);
    else if (has_train && f->interp_present == F_UNKNOWN)
        pf_add(c, PF_ORD_CONTRACT + 2, "contract.train", BYOC_PF_WARN, "check that train starts in the image",
               "train is %s, but it could not be read: %s", f->train, f->why);
    else if (has_train)
        pf_add(c, PF_ORD_CONTRACT + 2, "contract.train", BYOC_PF_PASS, NULL, "train is %s%s%s%s%s", f->train,
               f->train_real && strcmp(f->train_real, f->train) != 0 ? " -> " : "",
               f->train_real && strcmp(f->train_real, f->train) != 0 ? f->train_real : "",
               f->interp ? ", run by " : "", f->interp ? f->interp : "");
    else if (has_ep)
        pf_add(c, PF_ORD_CONTRACT + 2, "contract.train", BYOC_PF_PASS, NULL,
               "no train on PATH; the image's own ENTRYPOINT %s gets `train` as its argument", ep_text);
    else
        pf_add(c, PF_ORD_CONTRACT + 2, "contract.train", BYOC_PF_FAIL,
               "keep sagemaker-training in the image (pip install sagemaker-training) or add an ENTRYPOINT",
               "no `train` on the image's PATH (%s) and no ENTRYPOINT: the service's `docker run <image> train` "
               "fails (\"exec train failed\")",
               path_shown);

    if (has_ep && has_train)
        pf_add(c, PF_ORD_CONTRACT + 3, "contract.entrypoint", BYOC_PF_WARN,
               "remove the ENTRYPOINT, or make it exec \"$@\" so that train runs",
               "ENTRYPOINT %s receives `train` as an argument: unless it runs its arguments, train never starts",
               ep_text);
    else
        pf_add(c, PF_ORD_CONTRACT + 3, "contract.entrypoint", BYOC_PF_PASS, NULL, "%s%s",
               has_ep ? "ENTRYPOINT " : "no ENTRYPOINT: the service starts train", has_ep ? ep_text : "");

    size_t pl = program ? strlen(program) : 0;
    bool needs_python = (pl > 3 && strcmp(program + pl - 3, ".py") == 0) || f->train_is_sm == F_YES ||
                        (f->has_train == F_NO && !has_ep);
    if (f->has_python == F_UNKNOWN) {
        pf_add(c, PF_ORD_CONTRACT + 4, "contract.python", BYOC_PF_WARN, "check that the image has python3",
               "python3 could not be looked for: %s", f->why);
    } else if (f->has_python == F_YES) {
        char series[16];
        python_series(f->python_real, series, sizeof series);
        python_check(c, f->python, series);
    } else if (needs_python) {
        pf_add(c, PF_ORD_CONTRACT + 4, "contract.python", BYOC_PF_FAIL,
               "install python3 in the image (or start the job with an ENTRYPOINT of its own)",
               "no python3 or python on the image's PATH (%s)%s%s", path_shown,
               program ? ": SAGEMAKER_PROGRAM is " : "", program ? program : "");
    } else {
        pf_add(c, PF_ORD_CONTRACT + 4, "contract.python", has_ep ? BYOC_PF_WARN : BYOC_PF_PASS,
               "check that the ENTRYPOINT needs no Python",
               "no python3 or python on the image's PATH; not needed by train %s", has_train ? f->train : "");
    }

    if (!has_train || has_ep) {
        pf_add(c, PF_ORD_CONTRACT + 5, "contract.sagemaker-training", BYOC_PF_PASS, NULL,
               "not needed: the image does not start through sagemaker-training's train");
    } else if (f->train_is_sm == F_UNKNOWN) {
        pf_add(c, PF_ORD_CONTRACT + 5, "contract.sagemaker-training", BYOC_PF_WARN, "check train by hand",
               "train (%s) could not be read: %s", f->train, f->why);
    } else if (f->train_is_sm == F_NO) {
        pf_add(c, PF_ORD_CONTRACT + 5, "contract.sagemaker-training", BYOC_PF_PASS, NULL,
               "not needed: train (%s) is a launcher of its own, not sagemaker-training's; the service only runs "
               "`train`, so it must start SAGEMAKER_PROGRAM itself",
               f->train_real ? f->train_real : f->train);
    } else {
        char *py = NULL;
        const char *py_real = f->python_real;
        if (f->interp && f->interp[0] == '/') {
            byoc_imagefs_info st;
            byoc_err err;
            byoc_err_clear(&err);
            if (byoc_imagefs_stat(f->fs, f->interp, &st, &py, &err) == 0 && py)
                py_real = py;
        }
        char where[600] = "";
        fact sm = find_sagemaker_training(f, py_real, where, sizeof where);
        if (sm == F_YES)
            pf_add(c, PF_ORD_CONTRACT + 5, "contract.sagemaker-training", BYOC_PF_PASS, NULL,
                   "train is sagemaker-training's; the package is in %s", where);
        else if (sm == F_UNKNOWN)
            pf_add(c, PF_ORD_CONTRACT + 5, "contract.sagemaker-training", BYOC_PF_WARN, "check the image by hand",
                   "sagemaker_training could not be looked for: %s", f->why);
        else
            pf_add(c, PF_ORD_CONTRACT + 5, "contract.sagemaker-training", BYOC_PF_FAIL,
                   "pip install sagemaker-training into the Python that train runs",
                   "train is sagemaker-training's, but sagemaker_training is not in the packages of %s",
                   py_real ? py_real : f->interp ? f->interp : "its python");
        free(py);
    }
    free(ep_text);
}

/* The tool byoc's launcher starts an entry point of this kind with. */
static const char *tool_for(const char *kind)
{
    static const char *const map[][2] = {
        {"Cargo project", "cargo"}, {"CMake project", "cmake"}, {"C++ source", "c++"}, {"Rust source", "rustc"},
        {"Julia script", "julia"},  {"shell script", "sh"},     {"Python script", "python3"},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(kind, map[i][0]) == 0)
            return map[i][1];
    return NULL;
}

/* The launcher preflight judges the entry point for: the spec's, or, when
 * byoc could not tell, the one the image's SAGEMAKER_PROGRAM names. */
static byoc_job_launcher effective_launcher(const pf_ctx *c, const facts *f)
{
    if (c->spec->launcher != BYOC_LAUNCHER_UNKNOWN || !f->program)
        return c->spec->launcher;
    if (strcmp(f->program, "braket_container.py") == 0)
        return BYOC_LAUNCHER_BRAKET;
    if (strcmp(f->program, "byoc_container.py") == 0)
        return BYOC_LAUNCHER_BYOC;
    return BYOC_LAUNCHER_UNKNOWN;
}

static void code_checks(pf_ctx *c, facts *f, byoc_engine *e)
{
    if (!c->spec->source_module)
        return;
    char *entry = byoc_job_entry_point(c->spec);
    bool remote = strncmp(c->spec->source_module, "s3://", 5) == 0 || strncmp(c->spec->source_module, "https://", 8) == 0;
    byoc_job_launcher l = effective_launcher(c, f);
    byoc_entry_point_check chk;
    char why[600] = "";
    if (byoc_job_check_entry_point(l, remote ? NULL : c->spec->source_module, entry, &chk, why, sizeof why) != 0) {
        pf_add(c, PF_ORD_CODE + 1, "code.entry-point", BYOC_PF_FAIL, "name a file or module the launcher can start",
               "%s: %s (as %s starts it)", entry, why, byoc_job_launcher_name(l));
    } else if (l == BYOC_LAUNCHER_UNKNOWN) {
        pf_add(c, PF_ORD_CODE + 1, "code.entry-point", BYOC_PF_WARN, "check the entry point with byoc run --local",
               "%s: %s", entry, chk.note);
    } else if (strcmp(chk.kind, "Python module") == 0) {
        if (remote)
            pf_add(c, PF_ORD_CODE + 1, "code.entry-point", BYOC_PF_WARN, "check a local copy of the source",
                   "the source module is in S3: its import was not tried");
        else if (c->opts->skip_image_run)
            ;
        else if (f->has_python == F_YES)
            pf_code_import(c, e, f->python, entry);
        else
            pf_add(c, PF_ORD_CODE + 1, "code.entry-point", f->has_python == F_NO ? BYOC_PF_FAIL : BYOC_PF_WARN,
                   "install python3 in the image", "%s is a Python module, and the image has no python3 on PATH",
                   entry);
    } else {
        const char *tool = tool_for(chk.kind);
        char *found = NULL;
        fact has = F_YES;
        if (strcmp(chk.kind, "path in the image") == 0) {
            const char *p = entry;
            char *cut = byoc_xstrndup(p, strcspn(p, ":"));
            has = which(f, cut, &found);
            tool = cut;
            if (has == F_YES)
                pf_add(c, PF_ORD_CODE + 1, "code.entry-point", BYOC_PF_PASS, NULL, "%s is an executable in the image",
                       cut);
            else
                pf_add(c, PF_ORD_CODE + 1, "code.entry-point", has == F_NO ? BYOC_PF_FAIL : BYOC_PF_WARN,
                       "COPY the program into the image, or name one in the source module",
                       "%s is not an executable file in the image%s%s", cut, has == F_NO ? "" : ": ",
                       has == F_NO ? "" : f->why);
            free(cut);
        } else if (tool) {
            has = which(f, tool, &found);
            if (has == F_YES)
                pf_add(c, PF_ORD_CODE + 1, "code.entry-point", BYOC_PF_PASS, NULL,
                       "%s is a %s in the source module; byoc's launcher starts it with %s", entry, chk.kind, found);
            else
                pf_add(c, PF_ORD_CODE + 1, "code.entry-point", has == F_NO ? BYOC_PF_FAIL : BYOC_PF_WARN,
                       "install it in the image (the recipe's toolchain)",
                       "%s is a %s: byoc's launcher starts it with %s, which is %s", entry, chk.kind, tool,
                       has == F_NO ? "not on the image's PATH" : "could not be looked for");
        } else {
            pf_add(c, PF_ORD_CODE + 1, "code.entry-point", BYOC_PF_PASS, NULL, "%s is a%s %s in the source module",
                   entry, strchr("aeiou", chk.kind[0]) ? "n" : "", chk.kind);
        }
        free(found);
    }
    byoc_entry_point_check_clear(&chk);
    free(entry);
}

void pf_group_container(pf_ctx *c)
{
    if (!c->spec->image_uri)
        return;
    byoc_engine *e = c->opts->engine, *own = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    if (!e && byoc_engine_new(&own, &err) == 0)
        e = own;
    json_t *img = NULL;
    facts f;
    memset(&f, 0, sizeof f);
    if (!e || byoc_image_inspect(e, c->t, c->spec->image_uri, &img, &err) != 0 ||
        byoc_imagefs_open(e, c->t, c->spec->image_uri, &f.fs, &err) != 0) {
        char line[900];
        byoc_err_format(&err, line, sizeof line);
        pf_add(c, PF_ORD_CONTRACT + 1, "contract.program", BYOC_PF_WARN,
               "build or pull the image on the local engine to check the container contract",
               "the contract was not checked: %s", line);
        json_decref(img);
        byoc_engine_free(own);
        return;
    }
    const json_t *config = json_object_get(img, "Config");
    gather(&f, config);
    contract_checks(c, &f, config);
    code_checks(c, &f, e);
    byoc_imagefs_close(f.fs);
    free(f.train);
    free(f.train_real);
    free(f.interp);
    free(f.python);
    free(f.python_real);
    json_decref(img);
    byoc_engine_free(own);
}
