/* pullerr: the engine's texts for a base image it cannot pull (as Debian's engine 20.10
 * and a registry v2 write them) become the cause and what to do. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "docker/pullerr.h"

int main(void)
{
    static const struct {
        const char *msg;
        byoc_pull_cause want;
    } cases[] = {
        {"Get \"https://public.ecr.aws/v2/\": dial tcp: lookup public.ecr.aws on 10.0.0.53:53: no such host",
         BYOC_PULL_OFFLINE},
        {"Get \"https://r.example/v2/\": net/http: TLS handshake timeout", BYOC_PULL_OFFLINE},
        {"Get \"https://r.example/v2/\": dial tcp 10.1.2.3:443: i/o timeout", BYOC_PULL_OFFLINE},
        {"Head \"https://r.example/v2/x/manifests/1\": unauthorized: authentication required", BYOC_PULL_AUTH},
        {"Head \"https://1.dkr.ecr.us-east-1.amazonaws.com/v2/x/manifests/1\": no basic auth credentials",
         BYOC_PULL_AUTH},
        {"denied: Your authorization token has expired. Reauthenticate and try again.", BYOC_PULL_AUTH},
        {"manifest for python:3.99 not found: manifest unknown: manifest unknown", BYOC_PULL_NOT_FOUND},
        {"pull access denied for nosuch, repository does not exist or may require 'docker login': denied: "
         "requested access to the resource is denied", BYOC_PULL_NOT_FOUND},
        {"invalid reference format", BYOC_PULL_OTHER},
        {NULL, BYOC_PULL_OTHER},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        CHECK_INT(byoc_pull_classify(cases[i].msg), cases[i].want);

    char *m = byoc_pull_explain("public.ecr.aws/docker/library/python:3.13-slim-bookworm", cases[0].msg);
    CHECK(strstr(m, "the base image public.ecr.aws/docker/library/python:3.13-slim-bookworm cannot be pulled "
                    "(offline: the engine cannot reach public.ecr.aws)") == m);
    CHECK(strstr(m, "docker save | docker load") != NULL);
    CHECK(strstr(m, "(engine: Get \"https://public.ecr.aws/v2/\"") != NULL);
    free(m);
    m = byoc_pull_explain("1.dkr.ecr.us-east-1.amazonaws.com/x:1", cases[4].msg);
    CHECK(strstr(m, "(auth: 1.dkr.ecr.us-east-1.amazonaws.com refused") != NULL);
    CHECK(strstr(m, "docker login --username AWS --password-stdin 1.dkr.ecr.us-east-1.amazonaws.com") != NULL);
    free(m);
    m = byoc_pull_explain("nosuch", cases[7].msg);
    CHECK(strstr(m, "(not found on docker.io)") != NULL);
    free(m);
    m = byoc_pull_explain("localhost:5000/x", "something else");
    CHECK(strstr(m, "cannot be pulled: check the Dockerfile's FROM") != NULL);
    free(m);
    return check_done();
}
