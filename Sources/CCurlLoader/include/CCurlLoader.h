// HTTP GETs through the system's libcurl, loaded with dlopen the first time `iapdoctor asc pull`
// needs it. Linking Foundation's URLSession instead made every run of the static binary load
// libcurl and 30 libraries behind it (about 17 million instructions of relocation before `main`,
// most of a tiny check) and made `--static-swift-stdlib` builds need libcurl's development files.
#ifndef CCURLLOADER_H
#define CCURLLOADER_H

#include <stddef.h>

typedef struct {
    /// 1: an HTTP answer arrived (any status); 0: the transfer failed (`error` says why).
    int ok;
    long status;
    /// The answer's header lines, "Name: value\r\n" each, without the status line.
    char *headers;
    size_t headers_length;
    char *body;
    size_t body_length;
    /// Why the transfer failed, in words (empty when ok).
    char error[512];
    /// 1 when libcurl itself could not be loaded: no request can be made.
    int unavailable;
    /// 1 when the transfer was stopped because it stalled (see `iap_http_get`).
    int stalled;
} iap_http_result;

/// Loads libcurl (once). Returns 1 when it is usable; else 0 with the reason in `why`.
int iap_http_load(char *why, size_t why_size);

/// Handles kept between the requests of one transport, with their open connections (keep-alive)
/// and TLS sessions.
typedef struct iap_http_pool iap_http_pool;
iap_http_pool *iap_http_pool_create(void);
/// Closes the pool's connections and frees it.
void iap_http_pool_free(iap_http_pool *pool);

/// One GET of `url` with `count` "Name: value" header lines, on a handle of `pool`. Redirects are not followed (a 3xx is
/// returned as it is); a body over `max_body` bytes stops the transfer; `*cancel` becoming
/// non-zero stops it too, and so does a stall: fewer than `stall_bytes` body bytes arriving in
/// any `stall_seconds` (`stalled` is then set; 0 seconds: no stall check). Blocks; free the
/// result with `iap_http_result_free`.
void iap_http_get(iap_http_pool *pool, const char *url, const char *const *headers, size_t count, size_t max_body,
                  long timeout_seconds, long stall_seconds, long stall_bytes, const volatile int *cancel,
                  iap_http_result *result);

void iap_http_result_free(iap_http_result *result);

#endif
