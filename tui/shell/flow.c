#include "flow.h"

#include <stdlib.h>

#include "app_api.h"
#include "core/buf.h"
#include "core/str.h"

static tui_flow *flow_of(tui_app *a)
{
    if (!a->flow)
        a->flow = byoc_xcalloc(1, sizeof *a->flow);
    return a->flow;
}

const tui_flow *tui_flow_get(tui_app *a)
{
    return flow_of(a);
}

static void replace(char **field, const char *value)
{
    byoc_str_set(field, value && *value ? value : NULL);
}

void tui_flow_set_image(tui_app *a, const char *ref, const char *id)
{
    tui_flow *f = flow_of(a);
    replace(&f->image, ref);
    replace(&f->image_id, id);
    f->serial++;
}

void tui_flow_set_pushed(tui_app *a, const char *uri, const char *digest)
{
    tui_flow *f = flow_of(a);
    replace(&f->image_uri, uri);
    replace(&f->image_digest, digest);
    f->serial++;
}

void tui_flow_set_job(tui_app *a, const char *job_arn)
{
    tui_flow *f = flow_of(a);
    replace(&f->job_arn, job_arn);
    f->serial++;
}

void tui_flow_free(tui_flow *f)
{
    if (!f)
        return;
    free(f->image);
    free(f->image_id);
    free(f->image_uri);
    free(f->image_digest);
    free(f->job_arn);
    free(f);
}
