/* recipe: the vocabulary shared by the wizard, the scaffold and the lint:
 * recipes, languages, CPU architectures, and the facts about the prebuilt
 * Braket job images (aws/amazon-braket-containers on GitHub). */
#ifndef BYOC_BYOC_RECIPE_H
#define BYOC_BYOC_RECIPE_H

#include <stdbool.h>

typedef enum {
    BYOC_RECIPE_PREBUILT,        /* a prebuilt Braket image + requirements.txt; no BYOC */
    BYOC_RECIPE_EXTEND_PREBUILT, /* recipe 1: FROM a Braket image, add software */
    BYOC_RECIPE_CUSTOM_BASE,     /* recipe 2: public base + sagemaker-training + own entry point */
} byoc_recipe;

typedef enum {
    BYOC_LANG_PYTHON,
    BYOC_LANG_JULIA,
    BYOC_LANG_RUST,
    BYOC_LANG_CPP,
    BYOC_LANG_COUNT
} byoc_language;

typedef enum { BYOC_ARCH_AMD64, BYOC_ARCH_ARM64 } byoc_arch;

const char *byoc_recipe_name(byoc_recipe r);           /* "prebuilt", "extend-prebuilt", "custom-base" */
int byoc_recipe_parse(const char *s, byoc_recipe *out); /* 0 or -1 */
const char *byoc_language_name(byoc_language l);       /* "python", "julia", "rust", "cpp" */
int byoc_language_parse(const char *s, byoc_language *out);
const char *byoc_arch_name(byoc_arch a);               /* "amd64", "arm64" */
/* Accepts amd64/x86_64/x86-64 and arm64/aarch64, with an optional "linux/" prefix. */
int byoc_arch_parse(const char *s, byoc_arch *out);

/* The Python version the prebuilt Braket job images ship (section 5.1). */
#define BYOC_PREBUILT_PYTHON "3.12"
/* The registry account that hosts the prebuilt images in every region. */
#define BYOC_PREBUILT_ACCOUNT "292282985366"
/* Fewer missing public packages than this: requirements.txt in a prebuilt image is enough. */
#define BYOC_FEW_PACKAGES 10

/* The default prebuilt base image URI for recipe 1 in a region (us-east-1 when region is NULL). */
char *byoc_prebuilt_image_uri(const char *region, bool gpu);

/* Does this image reference name a prebuilt Braket jobs image? */
bool byoc_image_is_prebuilt(const char *ref);
/* Does this image reference look like a CUDA-capable base (nvidia/cuda, *-cuda*, the
 * Braket PyTorch/TensorFlow images)? */
bool byoc_image_is_cuda(const char *ref);

/* Packages the prebuilt base image already carries (normalised PyPI names,
 * NULL-terminated): requirements naming them are not "missing". */
extern const char *const byoc_prebuilt_packages[];
/* Is this (normalised) PyPI name one of them? */
bool byoc_prebuilt_has_package(const char *normalized_name);

/* Instance types (ml.*) with NVIDIA GPUs: p2, p3, p3dn, p4d, g4dn, g5, g6, g6e. */
bool byoc_instance_type_has_gpu(const char *instance_type);
/* Every Braket job instance type in the API model is x86_64. */
bool byoc_instance_type_is_x86(const char *instance_type);

#endif
