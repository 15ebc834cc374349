#include "CCurlLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// The few libcurl entry points used, declared here so that building needs no libcurl headers.
// Values from curl/curl.h (stable ABI since libcurl 7).
typedef void CURL;
struct curl_slist;
enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_HTTPHEADER = 10023, OPT_HEADERDATA = 10029,
    OPT_WRITEFUNCTION = 20011, OPT_HEADERFUNCTION = 20079, OPT_XFERINFOFUNCTION = 20219,
    OPT_XFERINFODATA = 10057, OPT_NOPROGRESS = 43, OPT_FOLLOWLOCATION = 52, OPT_TIMEOUT = 13,
    OPT_CONNECTTIMEOUT = 78, OPT_NOSIGNAL = 99, OPT_PROTOCOLS = 181, OPT_HTTPGET = 80, OPT_HTTP_VERSION = 84,
    INFO_RESPONSE_CODE = 0x200000 + 2,
    PROTO_HTTP = 1, PROTO_HTTPS = 2, GLOBAL_ALL = 3,
    E_COULDNT_RESOLVE_HOST = 6, E_COULDNT_CONNECT = 7, E_WRITE_ERROR = 23, E_OPERATION_TIMEDOUT = 28,
    E_SSL_CONNECT_ERROR = 35, E_ABORTED_BY_CALLBACK = 42, E_GOT_NOTHING = 52, E_SEND_ERROR = 55,
    E_RECV_ERROR = 56, E_PEER_FAILED_VERIFICATION = 60,
};

static struct {
    int (*global_init)(long);
    CURL *(*easy_init)(void);
    int (*easy_setopt)(CURL *, int, ...);
    int (*easy_perform)(CURL *);
    int (*easy_getinfo)(CURL *, int, ...);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    const char *(*easy_strerror)(int);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[400];
static int loaded;

static void load(void) {
    // libcurl.so.4 is the runtime package (libcurl4 / libcurl3-gnutls on Debian and Ubuntu, the
    // system library on macOS is libcurl.4.dylib); libcurl.so only comes with -dev packages.
#ifdef __APPLE__
    static const char *names[] = {"libcurl.4.dylib", NULL};
#else
    static const char *names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so", NULL};
#endif
    void *library = NULL;
    char first_error[200] = "";
    for (int i = 0; names[i] && !library; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        // The first name's reason is the one that matters (`libcurl.so.4: cannot open shared object file`).
        if (!library && i == 0) {
            const char *reason = dlerror();
            snprintf(first_error, sizeof first_error, "%s", reason ? reason : names[0]);
        }
    }
    if (!library) {
        snprintf(load_error, sizeof load_error, "libcurl is not installed (%s)", first_error);
        return;
    }
#define SYMBOL(field, name)                                                                        \
    *(void **)(&curl.field) = dlsym(library, name);                                                \
    if (!curl.field) {                                                                             \
        snprintf(load_error, sizeof load_error, "the libcurl found lacks %s; install libcurl 7.32 or newer", name); \
        return;                                                                                    \
    }
    SYMBOL(global_init, "curl_global_init")
    SYMBOL(easy_init, "curl_easy_init")
    SYMBOL(easy_setopt, "curl_easy_setopt")
    SYMBOL(easy_perform, "curl_easy_perform")
    SYMBOL(easy_getinfo, "curl_easy_getinfo")
    SYMBOL(easy_cleanup, "curl_easy_cleanup")
    SYMBOL(easy_reset, "curl_easy_reset")
    SYMBOL(easy_strerror, "curl_easy_strerror")
    SYMBOL(slist_append, "curl_slist_append")
    SYMBOL(slist_free_all, "curl_slist_free_all")
#undef SYMBOL
    if (curl.global_init(GLOBAL_ALL) != 0) {
        snprintf(load_error, sizeof load_error, "libcurl could not start (curl_global_init failed)");
        return;
    }
    loaded = 1;
}

int iap_http_load(char *why, size_t why_size) {
    pthread_once(&load_once, load);
    if (!loaded && why && why_size) snprintf(why, why_size, "%s", load_error);
    return loaded;
}

typedef struct {
    char *data;
    size_t length, capacity, limit;
    int over_limit;
} buffer;

static int append(buffer *b, const char *bytes, size_t n) {
    if (b->length + n > b->limit) {
        b->over_limit = 1;
        return 0;
    }
    if (b->length + n + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (capacity < b->length + n + 1) capacity *= 2;
        char *grown = realloc(b->data, capacity);
        if (!grown) return 0;
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, bytes, n);
    b->length += n;
    b->data[b->length] = 0;
    return 1;
}

static size_t on_body(char *bytes, size_t size, size_t count, void *context) {
    return append(context, bytes, size * count) ? size * count : 0;
}

static size_t on_header(char *bytes, size_t size, size_t count, void *context) {
    buffer *b = context;
    size_t n = size * count;
    // A status line starts the headers of an answer (after a `100 Continue`, the real one).
    if (n >= 5 && memcmp(bytes, "HTTP/", 5) == 0) {
        b->length = 0;
        return n;
    }
    if (n <= 2) return n;  // the blank line that ends the headers
    return append(b, bytes, n) ? n : 0;
}

// What the progress callback watches: the cancel flag, and the stall window (the body bytes
// when the current window began, and when it began).
typedef struct {
    const volatile int *cancel;
    long stall_seconds;
    long long stall_bytes;
    double window_start;
    long long window_bytes;
    int stalled;
} watch;

static double seconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static int on_progress(void *context, long long download_total, long long download_now, long long upload_total, long long upload_now) {
    (void)download_total, (void)upload_total, (void)upload_now;
    watch *w = context;
    if (w->cancel && *w->cancel) return 1;
    if (w->stall_seconds <= 0) return 0;
    double now = seconds_now();
    if (now - w->window_start < (double)w->stall_seconds) return 0;
    if (download_now - w->window_bytes < w->stall_bytes) {
        w->stalled = 1;
        return 1;
    }
    w->window_start = now;
    w->window_bytes = download_now;
    return 0;
}

static const char *describe(int code) {
    switch (code) {
    case E_OPERATION_TIMEDOUT: return "the request timed out";
    case E_COULDNT_CONNECT: return "cannot connect to the server";
    case E_COULDNT_RESOLVE_HOST: return "cannot find the server (DNS lookup failed)";
    case E_SEND_ERROR: case E_RECV_ERROR: case E_GOT_NOTHING: return "the connection was lost";
    case E_ABORTED_BY_CALLBACK: return "the request was cancelled";
    default: return NULL;
    }
}

// Handles kept between requests: a handle keeps its connection open (keep-alive) and its TLS
// session, so the pull's requests to one host do not each connect and handshake anew.
#define POOL_SIZE 8
struct iap_http_pool {
    pthread_mutex_t lock;
    CURL *handles[POOL_SIZE];
    int count;
};

iap_http_pool *iap_http_pool_create(void) {
    iap_http_pool *pool = calloc(1, sizeof *pool);
    if (pool) pthread_mutex_init(&pool->lock, NULL);
    return pool;
}

void iap_http_pool_free(iap_http_pool *pool) {
    if (!pool) return;
    for (int i = 0; i < pool->count; i++) curl.easy_cleanup(pool->handles[i]);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}

static CURL *take_handle(iap_http_pool *pool) {
    CURL *handle = NULL;
    if (pool) {
        pthread_mutex_lock(&pool->lock);
        if (pool->count > 0) handle = pool->handles[--pool->count];
        pthread_mutex_unlock(&pool->lock);
    }
    if (handle) {
        curl.easy_reset(handle);  // Options cleared; connections and sessions kept.
        return handle;
    }
    return curl.easy_init();
}

/// A handle whose transfer completed goes back to the pool; one that failed is closed.
static void give_back(iap_http_pool *pool, CURL *handle, int reusable) {
    if (reusable && pool) {
        pthread_mutex_lock(&pool->lock);
        if (pool->count < POOL_SIZE) {
            pool->handles[pool->count++] = handle;
            handle = NULL;
        }
        pthread_mutex_unlock(&pool->lock);
    }
    if (handle) curl.easy_cleanup(handle);
}

void iap_http_get(iap_http_pool *pool, const char *url, const char *const *headers, size_t count, size_t max_body,
                  long timeout_seconds, long stall_seconds, long stall_bytes, const volatile int *cancel,
                  iap_http_result *result) {
    memset(result, 0, sizeof *result);
    if (!iap_http_load(result->error, sizeof result->error)) {
        result->unavailable = 1;
        return;
    }
    CURL *handle = take_handle(pool);
    if (!handle) {
        snprintf(result->error, sizeof result->error, "libcurl could not make a request (curl_easy_init failed)");
        return;
    }
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < count; i++) list = curl.slist_append(list, headers[i]);
    buffer body = {.limit = max_body}, head = {.limit = 1 << 20};
    curl.easy_setopt(handle, OPT_URL, url);
    curl.easy_setopt(handle, OPT_HTTPGET, 1L);
    curl.easy_setopt(handle, OPT_HTTPHEADER, list);
    curl.easy_setopt(handle, OPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(handle, OPT_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L);
    // HTTP/2 over TLS where this libcurl has it (CURL_HTTP_VERSION_2TLS), else HTTP/1.1.
    curl.easy_setopt(handle, OPT_HTTP_VERSION, 4L);
    curl.easy_setopt(handle, OPT_TIMEOUT, timeout_seconds);
    curl.easy_setopt(handle, OPT_CONNECTTIMEOUT, timeout_seconds < 30 ? timeout_seconds : 30L);
    curl.easy_setopt(handle, OPT_WRITEFUNCTION, on_body);
    curl.easy_setopt(handle, OPT_WRITEDATA, &body);
    curl.easy_setopt(handle, OPT_HEADERFUNCTION, on_header);
    curl.easy_setopt(handle, OPT_HEADERDATA, &head);
    curl.easy_setopt(handle, OPT_NOPROGRESS, 0L);
    curl.easy_setopt(handle, OPT_XFERINFOFUNCTION, on_progress);
    watch progress = {.cancel = cancel, .stall_seconds = stall_seconds, .stall_bytes = stall_bytes, .window_start = seconds_now()};
    curl.easy_setopt(handle, OPT_XFERINFODATA, (void *)&progress);
    int code = curl.easy_perform(handle);
    result->stalled = progress.stalled;
    if (code == 0) {
        long status = 0;
        curl.easy_getinfo(handle, INFO_RESPONSE_CODE, &status);
        result->ok = status > 0;
        result->status = status;
        if (!result->ok) snprintf(result->error, sizeof result->error, "the server sent no HTTP response");
    } else if (body.over_limit) {
        snprintf(result->error, sizeof result->error, "the answer is larger than the %zu bytes iapdoctor reads", max_body);
    } else if (progress.stalled) {
        snprintf(result->error, sizeof result->error, "the answer stalled: fewer than %ld bytes arrived in %ld seconds", stall_bytes, stall_seconds);
    } else if (code == E_SSL_CONNECT_ERROR || code == E_PEER_FAILED_VERIFICATION) {
        snprintf(result->error, sizeof result->error, "the TLS connection failed (%s)", curl.easy_strerror(code));
    } else {
        const char *words = describe(code);
        snprintf(result->error, sizeof result->error, "%s", words ? words : curl.easy_strerror(code));
    }
    curl.slist_free_all(list);
    give_back(pool, handle, code == 0);
    if (result->ok) {
        result->body = body.data;
        result->body_length = body.length;
        result->headers = head.data;
        result->headers_length = head.length;
    } else {
        free(body.data);
        free(head.data);
    }
}

void iap_http_result_free(iap_http_result *result) {
    free(result->body);
    free(result->headers);
    result->body = result->headers = NULL;
}
