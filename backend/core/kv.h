/* kv: a key and its value, both owned strings; arrays of them carry build args,
 * template variables, tags and hyperparameters. */
#ifndef BYOC_CORE_KV_H
#define BYOC_CORE_KV_H

typedef struct byoc_kv {
    char *key;
    char *value;
} byoc_kv;

#endif
