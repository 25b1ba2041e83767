#include "doctor_platforms.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docker/platforms.h"

static bool engine_local(const byoc_engine_info *info)
{
    return strncmp(info->host, "unix://", 7) == 0;
}

json_t *doctor_platforms_json(const byoc_engine_info *info, const char *binfmt_dir)
{
    json_t *o = json_object();
    char native[64];
    bool have_native = byoc_platform_from_engine(info->os, info->arch, native, sizeof native);
    json_object_set_new(o, "native", have_native ? json_string(native) : json_null());
    if (!engine_local(info)) {
        json_object_set_new(o, "emulated", json_null());
        json_object_set_new(o, "note", json_string("the engine is not on this host: its binfmt handlers cannot be read"));
        return o;
    }
    byoc_binfmt *b = calloc(1, sizeof *b);
    if (!b)
        return o;
    byoc_binfmt_read(binfmt_dir, b);
    json_t *bf = json_object();
    json_object_set_new(bf, "dir", json_string(binfmt_dir ? binfmt_dir : BYOC_BINFMT_DIR));
    json_object_set_new(bf, "mounted", json_boolean(b->mounted));
    json_object_set_new(bf, "enabled", json_boolean(b->enabled));
    json_object_set_new(o, "binfmt", bf);
    json_t *emulated = json_array(), *handlers = json_array();
    for (size_t i = 0; i < b->n; i++) {
        const byoc_binfmt_entry *e = &b->e[i];
        if (!e->platform[0])
            continue; /* not an ELF machine handler (python, wine, ...) */
        json_array_append_new(handlers, json_pack("{s:s, s:s, s:s, s:s, s:b, s:b}", "name", e->name, "platform",
                                                  e->platform, "interpreter", e->interpreter, "flags", e->flags,
                                                  "enabled", e->enabled, "fix_binary", e->fix_binary));
        bool listed = false;
        size_t k;
        json_t *v;
        json_array_foreach(emulated, k, v) listed = listed || strcmp(json_string_value(v), e->platform) == 0;
        if (!listed && (!have_native || strcmp(e->platform, native) != 0) &&
            byoc_platform_check(e->platform, have_native ? native : NULL, b) == BYOC_PLATFORM_EMULATED)
            json_array_append_new(emulated, json_string(e->platform));
    }
    json_object_set_new(o, "emulated", emulated);
    json_object_set_new(o, "handlers", handlers);
    if (json_array_size(emulated) == 0)
        json_object_set_new(o, "fix", json_string(byoc_platform_fix(BYOC_PLATFORM_NONE)));
    free(b);
    return o;
}

void doctor_platforms_print(const byoc_engine_info *info, const char *binfmt_dir)
{
    json_t *o = doctor_platforms_json(info, binfmt_dir);
    const char *native = json_string_value(json_object_get(o, "native"));
    printf("%-12s %-4s %s (native)", "platforms", "ok", native ? native : "unknown");
    json_t *emulated = json_object_get(o, "emulated");
    if (!json_is_array(emulated)) {
        printf("; emulation unknown: %s\n", json_string_value(json_object_get(o, "note")));
        json_decref(o);
        return;
    }
    size_t i;
    json_t *h;
    json_array_foreach(json_object_get(o, "handlers"), i, h) {
        const char *p = json_string_value(json_object_get(h, "platform"));
        const char *name = json_string_value(json_object_get(h, "name"));
        if (native && strcmp(p, native) == 0)
            continue;
        if (!json_is_true(json_object_get(h, "enabled")))
            printf(", %s (%s disabled)", p, name);
        else if (!json_is_true(json_object_get(h, "fix_binary")))
            printf(", %s (%s without the F flag: not in containers)", p, name);
        else
            printf(", %s (emulated: %s)", p, name);
    }
    if (json_array_size(emulated) == 0)
        printf("\n%17sno emulation: %s", "", json_string_value(json_object_get(o, "fix")));
    putchar('\n');
    json_decref(o);
}
