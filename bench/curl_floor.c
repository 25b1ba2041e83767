/* The memory floor Debian's libcurl sets: a program that links it and calls
 * curl_global_init, nothing else. Benches compare byoc's peak RSS to this one's. */
#include <curl/curl.h>

int main(void)
{
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return 1;
    curl_global_cleanup();
    return 0;
}
