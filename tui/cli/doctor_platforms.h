/* doctor_platforms: the "platforms" part of `byoc doctor`: the engine's native platform and
 * those this host's kernel emulates through binfmt_misc (read only for an engine on this host). */
#ifndef BYOC_TUI_DOCTOR_PLATFORMS_H
#define BYOC_TUI_DOCTOR_PLATFORMS_H

#include <jansson.h>

#include "docker/engine.h"

/* {"native", "emulated": [...] or null, "binfmt": {...}, "handlers": [...]}; binfmt_dir NULL: the real one. */
json_t *doctor_platforms_json(const byoc_engine_info *info, const char *binfmt_dir);
/* The text row(s). */
void doctor_platforms_print(const byoc_engine_info *info, const char *binfmt_dir);

#endif
