#include "cli_doc.h"

#include "cli.h"

const char byoc_doc_tagline[] = "a workbench for Amazon Braket Hybrid Jobs in your own container";
const char byoc_doc_usage[] = "[--project DIR] [--profile P] [--region R] [--json] [--no-color] [-v] VERB [ARGS]";
const char byoc_doc_flow[] = "decide -> build -> push -> permit -> run -> monitor";

const byoc_doc_item byoc_doc_flags[] = {
    {"--project DIR", "the project directory (default: .)"},
    {"--profile P", "AWS profile (default: AWS_PROFILE, else \"default\")"},
    {"--region R", "AWS region (default: AWS_REGION, AWS_DEFAULT_REGION, the profile's)"},
    {"--json", "print exactly one JSON document on stdout; progress goes to stderr"},
    {"--no-color", "no colours (also NO_COLOR=1)"},
    {"-v, --verbose", "more detail on stderr (repeat for debug)"},
    {"--version", "print the version and the git revision it was built from"},
    {"-h, --help", "this text; `byoc VERB --help` for a verb"},
    {NULL, NULL},
};

const byoc_doc_item byoc_doc_env[] = {
    {"AWS_PROFILE, AWS_DEFAULT_PROFILE", "the AWS profile when --profile is not given"},
    {"AWS_REGION, AWS_DEFAULT_REGION", "the AWS region when --region is not given"},
    {"AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN", "credentials, before the profile's"},
    {"AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE", "the AWS config files (default ~/.aws/config, ~/.aws/credentials)"},
    {"AWS_ENDPOINT_URL, AWS_CA_BUNDLE", "another endpoint for every service; the CA certificates to trust"},
    {"AWS_MAX_ATTEMPTS, AWS_RETRY_MODE", "retries of AWS calls"},
    {"BRAKET_JOBS_ROLE_ARN", "the default execution role of `byoc run`"},
    {"DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH", "the Docker engine (default unix:///var/run/docker.sock)"},
    {"DOCKER_CONFIG", "where `byoc push --docker-config` stores the login (default ~/.docker)"},
    {"SOURCE_DATE_EPOCH", "the created label of a built image"},
    {"NO_COLOR", "no colours when set and not empty"},
    {"BYOC_ASCII", "ASCII instead of Unicode line drawing when 1"},
    {"BYOC_ASSETS_DIR", "where the recipes are (default <prefix>/share/byoc/assets)"},
    {"BYOC_DEBUG_LOG", "write the debug log when 1 (also -vv)"},
    {"XDG_STATE_HOME", "the state directory (default ~/.local/state)"},
    {NULL, NULL},
};

const byoc_doc_item byoc_doc_files[] = {
    {"<project>/byoc.json", "the project's settings: image, tags, build args, repository, job defaults"},
    {"$XDG_STATE_HOME/byoc/debug.log", "the debug log (with -vv or BYOC_DEBUG_LOG=1)"},
    {"$XDG_STATE_HOME/byoc/local-jobs.json", "the jobs run with `byoc run --local`"},
    {"<prefix>/share/byoc/assets", "the recipes `byoc init` scaffolds from"},
    {NULL, NULL},
};

const byoc_doc_item byoc_doc_exit[] = {
    {"0", "done"},
    {"1", "the operation failed"},
    {"2", "invalid usage or input (nothing was sent)"},
    {"3", "the environment is not ready (no engine, no credentials, endpoint unreachable)"},
    {NULL, NULL},
};

void byoc_doc_print_version(FILE *out)
{
    fprintf(out, "byoc %s (git %s)\n", BYOC_VERSION, byoc_revision);
}

void byoc_doc_print_help(FILE *out)
{
    fprintf(out, "byoc %s - %s\n\nusage: byoc %s\n       byoc            (opens the TUI when stdin and stdout are terminals)\n\n"
            "The flow: %s.\n\nverbs:\n", BYOC_VERSION, byoc_doc_tagline, byoc_doc_usage, byoc_doc_flow);
    for (const byoc_verb *v = byoc_verbs; v->name; v++)
        fprintf(out, "  %-10s %s\n", v->name, v->summary);
    fputs("\nglobal flags:\n", out);
    for (const byoc_doc_item *f = byoc_doc_flags; f->name; f++)
        fprintf(out, "  %-15s %s\n", f->name, f->text);
    fputs("\nexit codes:\n", out);
    for (const byoc_doc_item *e = byoc_doc_exit; e->name; e++)
        fprintf(out, "  %s  %s\n", e->name, e->text);
    fputs("\nSee byoc(1) for the environment, the files and the keys of the TUI.\n", out);
}
