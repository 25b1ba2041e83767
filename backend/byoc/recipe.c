#include "byoc/recipe.h"

#include <string.h>
#include <strings.h>

#include <stdlib.h>

#include "core/buf.h"

static const char *const recipe_names[] = {"prebuilt", "extend-prebuilt", "custom-base"};
static const char *const language_names[] = {"python", "julia", "rust", "cpp"};

const char *byoc_recipe_name(byoc_recipe r)
{
    return (unsigned)r < 3 ? recipe_names[r] : "?";
}

int byoc_recipe_parse(const char *s, byoc_recipe *out)
{
    for (int i = 0; i < 3; i++)
        if (s && strcmp(s, recipe_names[i]) == 0) {
            *out = (byoc_recipe)i;
            return 0;
        }
    return -1;
}

const char *byoc_language_name(byoc_language l)
{
    return (unsigned)l < BYOC_LANG_COUNT ? language_names[l] : "?";
}

int byoc_language_parse(const char *s, byoc_language *out)
{
    if (!s)
        return -1;
    for (int i = 0; i < BYOC_LANG_COUNT; i++)
        if (strcmp(s, language_names[i]) == 0) {
            *out = (byoc_language)i;
            return 0;
        }
    if (strcmp(s, "c++") == 0) {
        *out = BYOC_LANG_CPP;
        return 0;
    }
    return -1;
}

const char *byoc_arch_name(byoc_arch a)
{
    return a == BYOC_ARCH_ARM64 ? "arm64" : "amd64";
}

int byoc_arch_parse(const char *s, byoc_arch *out)
{
    if (!s)
        return -1;
    if (strncmp(s, "linux/", 6) == 0)
        s += 6;
    if (!strcasecmp(s, "amd64") || !strcasecmp(s, "x86_64") || !strcasecmp(s, "x86-64")) {
        *out = BYOC_ARCH_AMD64;
        return 0;
    }
    if (!strcasecmp(s, "arm64") || !strcasecmp(s, "aarch64") || !strcasecmp(s, "arm64/v8")) {
        *out = BYOC_ARCH_ARM64;
        return 0;
    }
    return -1;
}

char *byoc_prebuilt_image_uri(const char *region, bool gpu)
{
    return byoc_xasprintf("%s.dkr.ecr.%s.amazonaws.com/%s:latest", BYOC_PREBUILT_ACCOUNT,
                          region && *region ? region : "us-east-1",
                          gpu ? "amazon-braket-pytorch-jobs" : "amazon-braket-base-jobs");
}

bool byoc_image_is_prebuilt(const char *ref)
{
    if (!ref)
        return false;
    if (strncmp(ref, BYOC_PREBUILT_ACCOUNT ".dkr.ecr.", strlen(BYOC_PREBUILT_ACCOUNT ".dkr.ecr.")) == 0)
        return true;
    const char *slash = strrchr(ref, '/');
    const char *repo = slash ? slash + 1 : ref;
    return strncmp(repo, "amazon-braket-", 14) == 0 && strstr(repo, "-jobs") != NULL;
}

bool byoc_image_is_cuda(const char *ref)
{
    if (!ref)
        return false;
    char *low = byoc_xstrdup(ref);
    for (char *p = low; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    bool cuda = strstr(low, "cuda") || strstr(low, "amazon-braket-pytorch-jobs") ||
                strstr(low, "amazon-braket-tensorflow-jobs") || strstr(low, "-gpu") ||
                strstr(low, "nvcr.io/nvidia");
    free(low);
    return cuda;
}

const char *const byoc_prebuilt_packages[] = {
    "amazon-braket-default-simulator", "amazon-braket-pennylane-plugin", "amazon-braket-schemas",
    "amazon-braket-sdk", "autoray", "awscli", "boto3", "botocore", "dask", "matplotlib", "mpi4py",
    "networkx", "numpy", "pandas", "pennylane", "pennylane-lightning", "qiskit",
    "qiskit-braket-provider", "requests", "sagemaker-training", "scikit-learn", "scipy", "sympy",
    NULL,
};

bool byoc_prebuilt_has_package(const char *name)
{
    for (const char *const *p = byoc_prebuilt_packages; *p; p++)
        if (strcmp(*p, name) == 0)
            return true;
    return false;
}

bool byoc_instance_type_has_gpu(const char *t)
{
    if (!t || strncmp(t, "ml.", 3) != 0)
        return false;
    t += 3;
    return (t[0] == 'p' || t[0] == 'g') && t[1] >= '0' && t[1] <= '9';
}

bool byoc_instance_type_is_x86(const char *t)
{
    /* No Graviton (…g.) family is in the CreateJob instanceType enum. */
    return t && strncmp(t, "ml.", 3) == 0;
}
