#include "dispatch.h"

int main(int argc, char **argv)
{
    return byoc_cli_main(argc, argv);
}
