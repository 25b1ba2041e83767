/* lint_base: the lint's rules about what the base image brings against what the project needs
 * (python-base: its Python; cuda-base: its CUDA major). The base is known by its name only:
 * python:<series>..., the prebuilt Braket images, nvidia/cuda:<version>-...-ubuntu<release>
 * (which has no Python: byoc's contract installs that Ubuntu's python3). A base whose name does
 * not tell is not judged. */
#ifndef BYOC_BYOC_LINT_BASE_H
#define BYOC_BYOC_LINT_BASE_H

#include "byoc/lint.h"
#include "byoc/project.h"

/* dir: the project; root: the last stage's base image; df_text: the Dockerfile (a Dockerfile that
 * installs a Python of its own is not judged on Python); context: byoc.json's context, where
 * requirements.txt is read; findings name df_rel:line. */
void byoc_lint_base(const char *dir, const byoc_project *proj, const char *root, const char *df_text,
                    const char *df_rel, int line, const char *context, byoc_lint_result *out);

#endif
